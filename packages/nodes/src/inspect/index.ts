export { renderInspection, INSPECTION_MAX_PAGES, type InspectionOptions } from './render-inspection.js';
export { elementTypeColor } from './type-colors.js';
export { htmlReportPage, scriptJson, type ReportPage } from './report-page.js';
