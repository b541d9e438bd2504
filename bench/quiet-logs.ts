/**
 * Imported first by run.ts: the server logger reads its level once, when its module loads, and the
 * in-process phases load it. Request lines on stdout would bury the report; problems still print.
 */
process.env.LOG_LEVEL ??= "error";
