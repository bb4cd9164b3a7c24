/** Runs the checklist: the gate checks first, then the rest at once; a check that throws is a failure to read. */
import { CHECKS } from './checks';
import { type Check, describeError, type Finding, type PreflightContext } from './types';

export async function runChecks(ctx: PreflightContext, checks: readonly Check[] = CHECKS): Promise<Finding[]> {
  const results = new Map<Check, Finding[]>();
  for (const check of checks.filter((c) => c.gate)) results.set(check, await runOne(ctx, check));
  const gateFailed = [...results.values()].some((f) => f.some((x) => x.status === 'fail'));
  const rest = checks.filter((c) => !c.gate);
  const answers = await Promise.all(
    rest.map((check) =>
      gateFailed && check.needsAccount
        ? Promise.resolve<Finding[]>([
            { status: 'skip', title: check.title, detail: 'skipped: needs working credentials and a region' },
          ])
        : runOne(ctx, check),
    ),
  );
  for (const [i, check] of rest.entries()) results.set(check, answers[i]);
  return checks.flatMap((c) => results.get(c) ?? []);
}

async function runOne(ctx: PreflightContext, check: Check): Promise<Finding[]> {
  try {
    return await check.run(ctx);
  } catch (e) {
    // Not knowing is not passing: the deploy is not shown to work.
    return [
      {
        status: 'fail',
        title: check.title,
        detail: `could not check: ${describeError(e)}`,
        fix: 'run the preflight as a principal that may read this (e.g. with the ReadOnlyAccess managed policy)',
      },
    ];
  }
}

/** 1 when a required check failed, else 0 (warnings and skips alone do not fail the preflight). */
export const exitCodeOf = (findings: readonly Finding[]) => (findings.some((f) => f.status === 'fail') ? 1 : 0);
