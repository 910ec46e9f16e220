/** CSV exports from list pages (members, payments, visits): the call, the download, the button. */

export { downloadExport, type ExportProgress, saveFile } from "./download";
export { ExportButton } from "./ExportButton";
