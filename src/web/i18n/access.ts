import { HANDBOOKS, HANDBOOK_TYPES } from '../../../schemas/index';
import type { HandbookType } from '../../shared/modules';
import type { Catalogue } from './catalogue';

/** The handbooks' section names, from their schema files' titles. */
function handbookTitles(language: 'ru' | 'en'): Record<HandbookType, string> {
  const titles = {} as Record<HandbookType, string>;
  for (const type of HANDBOOK_TYPES) titles[type] = language === 'ru' ? HANDBOOKS[type].title : HANDBOOKS[type].titleEn;
  return titles;
}

export const accessRu = {
  sections: {
    video: { archiveMonitoring: 'Мониторинг архива ТС' },
    passengers: { registry: 'Реестр пассажиропотока', correspondence: 'Корреспонденция' },
    system: { bc: 'Настройки контроля оплаты' },
    journals: {
      userActions: 'Журнал действий пользователей',
      vehicleConnectEvents: 'События подключения ТС',
      passErrors: 'Ошибки проходов',
      softwareEvents: 'События ПО',
      videoEvents: 'События видео',
      adas: 'События ИСПВ',
    },
    handbooks: handbookTitles('ru'),
  },
};

export const accessEn: Catalogue<typeof accessRu> = {
  sections: {
    video: { archiveMonitoring: 'Vehicle archive monitoring' },
    passengers: { registry: 'Passenger registry', correspondence: 'Correspondence' },
    system: { bc: 'Ticket control settings' },
    journals: {
      userActions: 'User actions journal',
      vehicleConnectEvents: 'Vehicle connect events',
      passErrors: 'Pass errors',
      softwareEvents: 'Software events',
      videoEvents: 'Video events',
      adas: 'ISPV events',
    },
    handbooks: handbookTitles('en'),
  },
};
