/** Protocol constants of ГОСТ 33472-2015 (transport layer) and ГОСТ 33465-2015 (service layer). */

export const EGTS_PROTOCOL_VERSION = 0x01;
export const HEADER_LENGTH = 11;
export const HEADER_LENGTH_ROUTED = 16;
/** NTM and TM count seconds from 2010-01-01 00:00:00 UTC. */
export const EGTS_EPOCH_MS = Date.UTC(2010, 0, 1);

/** Packet types (field PT). */
export const PT = { RESPONSE: 0, APPDATA: 1, SIGNED_APPDATA: 2 } as const;

/** Service types (fields SST, RST of a record). */
export const SERVICE = { AUTH: 1, TELEDATA: 2, COMMANDS: 4, FIRMWARE: 9, ECALL: 10 } as const;

/** Subrecord types (field SRT) of the services handled here. */
export const SRT = {
  RECORD_RESPONSE: 0,
  TERM_IDENTITY: 1,
  RESULT_CODE: 9,
  POS_DATA: 16,
  EXT_POS_DATA: 17,
  AD_SENSORS_DATA: 18,
} as const;

/** Processing result codes (ГОСТ 33465-2015, annex "Коды результатов обработки"). */
export const PC = {
  OK: 0,
  IN_PROGRESS: 1,
  UNS_PROTOCOL: 128,
  DECRYPT_ERROR: 129,
  PROC_DENIED: 130,
  INC_HEADERFORM: 131,
  INC_DATAFORM: 132,
  UNS_TYPE: 133,
  NOTEN_PARAMS: 134,
  DBL_PROC: 135,
  PROC_SRC_DENIED: 136,
  HEADERCRC_ERROR: 137,
  DATACRC_ERROR: 138,
  INVDATALEN: 139,
  ROUTE_NFOUND: 140,
  ROUTE_CLOSED: 141,
  ROUTE_DENIED: 142,
  INVADDR: 143,
  TTLEXPIRED: 144,
  NO_ACK: 145,
  OBJ_NFOUND: 146,
  EVNT_NFOUND: 147,
  SRVC_NFOUND: 148,
  SRVC_DENIED: 149,
  SRVC_UNKN: 150,
  AUTH_DENIED: 151,
  ALREADY_EXISTS: 152,
  ID_NFOUND: 153,
  INC_DATETIME: 154,
} as const;
