import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddb } from './aws';
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
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: settings.table('counters'),
        Key: { counter_id: previewCounterId() },
        UpdateExpression: 'ADD #n :one SET expires_at = if_not_exists(expires_at, :exp)',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :limit',
        ExpressionAttributeNames: { '#n': 'count' },
        // Kept two days past its own, then the table's TTL removes it.
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':exp': Math.floor(Date.now() / 1000) + 3 * 86400 },
      }),
    );
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException || (err as Error).name === 'ConditionalCheckFailedException')
      return false;
    throw err;
  }
}

/**
 * Gives back a unit taken today for a preview that was then not made (no model capacity this minute): the budget
 * counts previews, not attempts. Never below zero.
 */
export async function givePreviewBudgetBack(): Promise<void> {
  try {
    await ddb().send(
      new UpdateCommand({
        TableName: settings.table('counters'),
        Key: { counter_id: previewCounterId() },
        UpdateExpression: 'ADD #n :minus',
        ConditionExpression: '#n > :zero',
        ExpressionAttributeNames: { '#n': 'count' },
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    );
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException || (err as Error).name === 'ConditionalCheckFailedException')
      return;
    throw err;
  }
}

/** Generative previews made today (for operators and tests). */
export async function previewsToday(): Promise<number> {
  const res = await ddb().send(
    new GetCommand({ TableName: settings.table('counters'), Key: { counter_id: previewCounterId() } }),
  );
  return Number(res.Item?.count ?? 0);
}
