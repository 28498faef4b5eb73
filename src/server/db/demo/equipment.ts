import type { Random } from './random';
import { CAMERA_TYPES, CONTROLLER_EQUIPMENT_TYPES, DVR_TYPES, MNT_TYPES } from './reference';
import type {
  ControllerCardRow,
  ControllerEquipmentRow,
  DevCameraRow,
  DevGsmRow,
  DevMntRow,
  DevPasspotokRow,
  DvrRow,
  ValidatorRow,
  VehicleRow,
} from './rows';

export interface EquipmentParams {
  /** Share of vehicles with a video recorder, with passenger counters, with validators. */
  dvrShare: number;
  passengerCounterShare: number;
  validatorShare: number;
  /** Controller terminals and cards without an owner, besides one each per controller. */
  spareControllerItems: number;
}

export interface Equipment {
  mnts: DevMntRow[];
  passengerCounters: DevPasspotokRow[];
  modems: DevGsmRow[];
  dvrs: DvrRow[];
  cameras: DevCameraRow[];
  validators: ValidatorRow[];
  controllerEquipment: ControllerEquipmentRow[];
  controllerCards: ControllerCardRow[];
}

const MEDIA_SERVER = { ip: '10.250.0.10', port: 1935, login: 'media', password: 'Md2025stream' };
const DOORS_BY_CAPACITY = [2, 2, 3, 4];
const MODEMS = ['Teltonika RUT240', 'Huawei E3372', 'iRZ RL22w'];

/** The nth address of a vehicle inside its depot's subnet: every octet stays in 0..255. */
function hostIp(first: number, second: number, n: number): string {
  return `${first}.${second}.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

/** On-board terminals for every vehicle (same peer address), recorders with 2–4 cameras, counters, modems, validators; controllers' kit. */
export function generateEquipment(random: Random, vehicles: VehicleRow[], controllerIds: number[], params: EquipmentParams): Equipment {
  const equipment: Equipment = {
    mnts: [],
    passengerCounters: [],
    modems: [],
    dvrs: [],
    cameras: [],
    validators: [],
    controllerEquipment: [],
    controllerCards: [],
  };
  const perDepot = new Map<number, number>();
  for (const vehicle of vehicles) {
    const n = perDepot.get(vehicle.depot_id) ?? 0;
    perDepot.set(vehicle.depot_id, n + 1);
    const mntType = random.pick(MNT_TYPES);
    const media = random.chance(0.1);
    equipment.mnts.push({
      id: equipment.mnts.length + 1,
      ip: hostIp(10, vehicle.depot_id, n),
      DevMNTType_id: mntType.id,
      vehicle_id: vehicle.id,
      peer_address: vehicle.peer_address,
      serial_number: mntType.is_serial_number ? `${mntType.name.slice(0, 3).toUpperCase()}${random.int(10000000, 99999999)}` : null,
      login: random.chance(0.5) ? 'mnt' : null,
      password: null,
      port: 20629,
      msip: media ? MEDIA_SERVER.ip : null,
      msport: media ? MEDIA_SERVER.port : null,
      mslogin: media ? MEDIA_SERVER.login : null,
      mspassword: media ? MEDIA_SERVER.password : null,
      msuse: media,
    });

    if (random.chance(params.dvrShare)) {
      const dvrType = random.pick(DVR_TYPES);
      // The draw is kept so the rest of the demo stays the same; demo recorders stream from the built-in demo
      // source (no media server exists at the demo's address, and every demo camera must play).
      random.chance(0.5);
      const useMedia = false;
      const dvrId = equipment.dvrs.length + 1;
      equipment.dvrs.push({
        id: dvrId,
        vehicle_id: vehicle.id,
        dvr_type_id: dvrType.id,
        serial_number: `${dvrType.type_code.slice(0, 2)}${random.int(100000000, 999999999)}`,
        ip: hostIp(172, 16 + (vehicle.depot_id % 16), n),
        port: 8000 + random.int(0, 99),
        login: 'admin',
        password: `Dvr${random.int(100000, 999999)}`,
        media_server_ip: useMedia ? MEDIA_SERVER.ip : null,
        media_server_port: useMedia ? MEDIA_SERVER.port : null,
        media_server_login: useMedia ? MEDIA_SERVER.login : null,
        media_server_password: useMedia ? MEDIA_SERVER.password : null,
        is_media_server_use: useMedia,
      });
      const cameraCount = random.int(2, 4);
      // Front and saloon always; the rear and the driver camera on the better equipped vehicles.
      const types = [CAMERA_TYPES[0], CAMERA_TYPES[1], ...random.shuffle(CAMERA_TYPES.slice(2))].slice(0, cameraCount);
      types.forEach((type, i) =>
        equipment.cameras.push({ id: equipment.cameras.length + 1, index: i + 1, dvr_id: dvrId, camera_addr: type.ip }),
      );
      equipment.modems.push({
        id: equipment.modems.length + 1,
        name: random.pick(MODEMS),
        ModuleEnabled: random.chance(0.92) ? 1 : 0,
        vehicle_id: vehicle.id,
        device_cmd: '/dev/ttyUSB2',
        device_ppp: '/dev/ttyUSB0',
      });
    }

    if (random.chance(params.passengerCounterShare)) {
      const overCan = random.chance(0.4);
      const doors = DOORS_BY_CAPACITY[vehicle.capacity_type_id - 1];
      for (let door = 1; door <= doors; door++) {
        equipment.passengerCounters.push({
          id: equipment.passengerCounters.length + 1,
          name: `Датчик двери ${door}`,
          enable: random.chance(0.9) ? 1 : random.chance(0.5) ? 0 : null,
          protocol: overCan ? 'CAN-IRMA' : 'UDP-PPK',
          door_index: door,
          vehicle_id: vehicle.id,
          transport: overCan ? 'can' : 'udp',
          ip: overCan ? null : hostIp(192, 168, 100 + door),
          port: overCan ? null : 5000 + door,
          addr: overCan ? `0x${(0x20 + door).toString(16)}` : null,
        });
      }
    }

    if (random.chance(params.validatorShare)) {
      const count = DOORS_BY_CAPACITY[vehicle.capacity_type_id - 1] - 1;
      for (let i = 1; i <= count; i++) {
        const validator_id = 100000 + equipment.validators.length + 1;
        equipment.validators.push({
          validator_id,
          validator_name: `Валидатор ВБ-${i} (борт ${vehicle.depot_number})`,
          vehicle_id: vehicle.depot_number,
        });
      }
    }
  }

  const owners: (number | null)[] = [...controllerIds, ...Array.from({ length: params.spareControllerItems }, () => null)];
  owners.forEach((worker_id, i) => {
    equipment.controllerEquipment.push({
      pu_id: i + 1,
      worker_id,
      pu_model_id: CONTROLLER_EQUIPMENT_TYPES[i % CONTROLLER_EQUIPMENT_TYPES.length].pu_model_id,
    });
    equipment.controllerCards.push({ card_id: i + 1, card_number: `78${String(random.int(0, 99999999)).padStart(8, '0')}`, worker_id });
  });
  return equipment;
}
