export { renderInspection, INSPECTION_MAX_PAGES, type InspectionOptions } from './render-inspection.js';
export { elementTypeColor } from './type-colors.js';
export { htmlReportPage, type ReportPage } from './report-page.js';
