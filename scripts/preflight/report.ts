/** Prints the checklist: one line per finding, its fix beneath, and a count. */
import type { Finding, Status } from './types';

const MARK: Record<Status, string> = { pass: '✓', fail: '✗', warn: '!', skip: '-' };

export function formatReport(heading: string, findings: readonly Finding[]): string {
  const lines = [heading, ''];
  for (const f of findings) {
    lines.push(`${MARK[f.status]} ${f.title}: ${f.detail}`);
    if (f.fix && f.status !== 'pass') lines.push(`    fix: ${f.fix}`);
  }
  const count = (s: Status) => findings.filter((f) => f.status === s).length;
  const failed = count('fail');
  lines.push(
    '',
    `${count('pass')} passed, ${failed} failed, ${count('warn')} to look at, ${count('skip')} skipped: ` +
      (failed ? 'fix the failures before deploying.' : 'ready to deploy.'),
  );
  return lines.join('\n');
}
