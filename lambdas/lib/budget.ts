import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ddb, writeIf } from './aws';
import { updateCommand } from './item-update';
import { budgetDay } from './renderer';
import { settings } from './settings';

/** Counter id of the day's generative previews in the counters table. */
export const previewCounterId = (day = budgetDay()) => `generative-previews#${day}`;

/**
 * Takes one generative preview from today's budget with one atomic conditional increment (no read first, so
 * concurrent jobs can never overspend). False when the day's budget is spent: the caller shows the static sample.
 */
export async function takePreviewBudget(): Promise<boolean> {
  const limit = settings.generativePreviewsPerDay;
  if (limit <= 0) return false;
  return writeIf(
    updateCommand('counters', previewCounterId(), {
      add: { count: 1 },
      // Kept two days past its own, then the table's TTL removes it.
      setIfMissing: { expires_at: Math.floor(Date.now() / 1000) + 3 * 86400 },
      condition: 'attribute_not_exists({count}) OR {count} < :limit',
      values: { ':limit': limit },
    }),
  );
}

/**
 * Gives back a unit taken today for a preview that was then not made (no model capacity this minute): the budget
 * counts previews, not attempts. Never below zero.
 */
export async function givePreviewBudgetBack(): Promise<void> {
  await writeIf(
    updateCommand('counters', previewCounterId(), {
      add: { count: -1 },
      condition: '{count} > :zero',
      values: { ':zero': 0 },
    }),
  );
}

/** Generative previews made today (for operators and tests). */
export async function previewsToday(): Promise<number> {
  const res = await ddb().send(
    new GetCommand({ TableName: settings.table('counters'), Key: { counter_id: previewCounterId() } }),
  );
  return Number(res.Item?.count ?? 0);
}
