/**
 * Jest setup for every project: Powertools as the local runtime configures it (local/runtime.ts), so a test log
 * holds what a test prints, not metric JSON or "Namespace should be defined". Set POWERTOOLS_LOG_LEVEL or
 * POWERTOOLS_METRICS_DISABLED=false before `npm test` to see them.
 */
process.env.POWERTOOLS_METRICS_NAMESPACE ??= 'ToonZapTest';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
