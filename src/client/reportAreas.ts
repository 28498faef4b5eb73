import { adasReportParts } from './adas/adasReportParts';
import { bcReportParts } from './bc/bcReportParts';
import { journalReportParts } from './journals/journalReportParts';
import { passengerReportParts } from './passengers/passengerReportParts';
import { registerReportExtensions } from './reports/reportExtensions';
import { videoReportParts } from './video/videoReportParts';

/** The areas' parts of the report scaffold (their cells, row views and actions, special parts), registered at the console's start. */
for (const area of [adasReportParts, bcReportParts, journalReportParts, passengerReportParts, videoReportParts])
  registerReportExtensions(area);
