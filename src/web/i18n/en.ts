import { mobileEn } from './mobile';
import { usersEn } from './users';
import { rolesEn } from './roles';
import { accessEn } from './access';
import { settingsEn } from './settings';
import { journalsEn } from './journals';
import { videoEn } from './video';
import { reportsEn } from './reports';
import { bcEn } from './bc';
import { notificationsEn } from './notifications';
import { handbookEditorEn } from './handbookEditor';
import { fieldMapEn } from './fieldMap';
import { mapViewEn } from './mapView';
import { dispatchEn } from './dispatch';
import { pdmEn } from './pdm';
import { gtfsEn } from './gtfs';
import type { AppMessages } from './ru';
import { equipmentEn } from './equipment';

/** English, switchable from the user menu. */
export const en: AppMessages = {
  equipment: equipmentEn,
  app: {
    name: 'Transport platform',
    subtitle: 'Operator console',
    loading: 'Loading',
    toMain: 'To the main page',
    login: 'Log in',
    language: 'Language',
    languages: { ru: 'Русский', en: 'English' },
    fullscreen: { enter: 'Full screen', exit: 'Exit full screen' },
    sidebar: 'Menu',
    logout: 'Log out',
    close: 'Close',
  },
  login: {
    heading: 'Sign in',
    username: 'Login',
    password: 'Password',
    submit: 'Log in',
    required: 'This field is required',
  },
  menu: {
    groups: {
      map: 'Map',
      video: 'Video',
      passengers: 'Passenger flow',
      bc: 'Ticket control',
      importData: 'Data import',
      mntConfiguration: 'Remote update',
      monitoring: 'Monitoring',
      pdm: 'PDM',
      adas: 'ISPV reports',
      dispatch: 'Dispatch',
      system: 'System settings',
      handbooks: 'Handbooks',
      journals: 'Journals',
      administration: 'Administration',
      about: 'About',
    },
    map: 'Map',
    video: {
      online: 'Live video',
      requests: 'Video requests',
      requestCreate: 'New video request',
      archive: 'Video archive',
      myrequests: 'My requests',
      archiveMonitoring: 'Vehicle archive monitoring',
    },
    passengers: {
      analysis: 'Analysis',
      registry: 'Registry',
      passage: 'Passages',
      stops: 'Stops',
      pay: 'Payments',
      correspondence: 'Correspondence',
      passturn: 'Passenger turnover',
      turnstops: 'Turnover by stop',
      betweenstops: 'Between stops',
      rollingStock: 'Rolling stock',
      distRollingStock: 'Rolling stock distribution',
      traffic: 'Traffic report',
      dailyData: 'Daily data',
    },
    bc: {
      calendar: 'Calendar',
      controllertask: 'Controller tasks',
      routerate: 'Route rating',
      departmentcontroll: 'Department control',
      resultuser: 'Controller results',
      reports: 'Reports',
      result: 'Task results',
    },
    importData: { ticketsValidation: 'Validation import', gtfs: 'GTFS import' },
    mntConfiguration: {
      configurations: 'Configurations',
      configuration: 'Configuration',
      vehicleGroups: 'Vehicle groups',
    },
    monitoring: { vehicleWorkData: 'Vehicle work data', vehicleDiagnostic: 'On-board equipment diagnostic' },
    dispatch: {
      board: 'Service situation', lines: 'Line diagram', exits: 'Plan and fact', changes: 'Service changes', messages: 'Messages to drivers',
      onTime: 'On-time performance', runCompletion: 'Run completion', headways: 'Headway regularity', predictions: 'Prediction accuracy',
    },
    pdm: {
      heatmap: 'Heat map',
      treeEditor: 'Tree editor',
      vehicleDiagnosticReport: 'Vehicle sensor diagnostic',
      changeNodeJournal: 'Node change log',
      charts: 'Charts',
      service: 'Service reports',
      equipmentStatusReport: 'Equipment status',
      importManager: 'Import manager',
    },
    adas: {
      incidentsDynamic: 'Incident dynamics',
      incidentsDistribution: 'Incident distribution',
      incidentsDetailing: 'Incident details',
    },
    system: {
      navigation: 'Navigation',
      video: 'Video',
      passengers: 'Passenger flow',
      journals: 'Journals',
      bc: 'Ticket control',
      eis: 'EIS import',
    },
    handbooks: 'Handbooks',
    journals: {
      useractions: 'User actions',
      eventsts: 'Vehicle events',
      eventspo: 'Software events',
      video: 'Video events',
      adas: 'ISPV events',
    },
    administration: {
      users: 'Users',
      userCreate: 'New user',
      userEdit: 'User',
      roles: 'Roles',
    },
    about: 'About',
  },
  modules: {
    map: 'Map',
    video: 'Video',
    passengers: 'Passenger flow',
    bc: 'Ticket control',
    importData: 'Validation data import',
    mntConfiguration: 'Terminal remote update',
    vehicleWorkData: 'Vehicle work data',
    vehicleDiagnostic: 'Vehicle diagnostic',
    pdm: 'PDM',
    adas: 'ISPV reports',
    dispatch: 'Dispatch',
    system: 'System settings',
    handbooks: 'Handbooks',
    journals: 'Journals',
    administration: 'Administration',
  },
  moduleFilters: {
    all: 'All',
    ump: 'UMP',
    video: 'Video',
    passengers: 'Passenger flow',
    bc: 'Ticket control',
    monitoring: 'Monitoring',
  },
  about: {
    title: 'About',
    modules: 'Modules',
    manuals: 'Manuals',
    enabled: 'On',
    disabled: 'Off',
    version: 'Version',
    buildDate: 'Build date',
    manualVersion: 'version %{version}',
    manualUnavailable: 'unavailable',
    manualList: {
      administrator: 'Administrator guide',
      operator: 'Operator guide',
      controller: 'Controller guide',
    },
  },
  service: {
    accessDenied: { title: 'Access denied', text: 'No access' },
    notFound: { title: 'Not found', text: 'The page does not exist or no section is available to you' },
    serverError: { title: 'Error', text: 'The server did not answer. Try again later' },
    noConnection: { title: 'No connection', text: 'The server cannot be reached. Check the network connection' },
  },
  filter: {
    search: 'Search',
    apply: 'Apply',
    reset: 'Reset',
    empty: 'Nothing found',
    loading: 'Loading',
    selected: 'Selected: %{count}',
    truncated: 'Showing the first %{shown} of %{total}, refine the search',
  },
  confirm: { title: 'Confirmation', yes: 'Yes', no: 'Cancel' },
  /** The field application under /m (src/mobile). */
  mobile: mobileEn,
  users: usersEn,
  roles: rolesEn,
  access: accessEn,
  settings: settingsEn,
  journals: journalsEn,
  video: videoEn,
  reports: reportsEn,
  bc: bcEn,
  pdm: pdmEn,
  gtfs: gtfsEn,
  dispatch: dispatchEn,
  notifications: notificationsEn,
  handbookEditor: handbookEditorEn,
  fieldMap: fieldMapEn,
  mapView: mapViewEn,
};
