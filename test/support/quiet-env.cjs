/**
 * Jest setup for every project: Powertools as the local runtime configures it (local/runtime.ts), so a test log
 * holds what a test prints, not metric JSON or "Namespace should be defined". Set POWERTOOLS_LOG_LEVEL or
 * POWERTOOLS_METRICS_DISABLED=false before `npm test` to see them.
 */
process.env.POWERTOOLS_METRICS_NAMESPACE ??= 'ToonZapTest';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
// CDK's built-in CloudFormation validation (a WebAssembly engine, about 5 s to start and 2 s a synth) is left to the
// tests that check the whole app as `cdk synth` does (test/infra/nag.test.ts turns it on); the rest read templates.
process.env.CDK_VALIDATION ??= 'false';
