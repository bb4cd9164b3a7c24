import { randomBytes } from 'node:crypto';
import { CloudFrontClient, GetDistributionConfigCommand, UpdateDistributionCommand } from '@aws-sdk/client-cloudfront';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import { ORIGIN_VERIFY_HEADER } from '../../domain/security-headers';
import { ENV } from '../../domain/wiring';
import { secretsManager } from '../lib/aws';
import { logger } from '../lib/observability';
import { taskHandler } from '../lib/task';

/** Secrets Manager's rotation event (one call per step, the same token throughout). */
export interface RotationEvent {
  Step: 'createSecret' | 'setSecret' | 'testSecret' | 'finishSecret';
  SecretId: string;
  ClientRequestToken: string;
}

/** 48 characters, as the secret the stack first generates: 192 random bits, in hex (header-safe). */
export function newOriginSecret(): string {
  return randomBytes(24).toString('hex');
}

/**
 * Rotates the CloudFront → API origin secret (Secrets Manager calls it on the secret's schedule). The API accepts
 * AWSCURRENT and AWSPREVIOUS (lambdas/lib/http.ts), so the order is: make the new value (AWSPENDING), promote it to
 * AWSCURRENT (the old one becomes AWSPREVIOUS, still accepted), then make CloudFront send it. The edge locations take
 * minutes to pick up the header; meanwhile both values pass, and nothing is refused. finishSecret is idempotent: a
 * retry after a failed distribution update promotes nothing twice and updates the header again.
 */
async function rotate(event: RotationEvent): Promise<void> {
  const sm = secretsManager();
  const { SecretId: id, ClientRequestToken: token, Step: step } = event;
  const meta = await sm.send(new DescribeSecretCommand({ SecretId: id }));
  const stages = meta.VersionIdsToStages ?? {};
  if (!stages[token]) throw new Error(`Secret version ${token} is not a version of ${id}`);

  if (step === 'createSecret') {
    if (stages[token].includes('AWSCURRENT') || stages[token].includes('AWSPENDING')) return;
    await sm.send(
      new PutSecretValueCommand({
        SecretId: id,
        ClientRequestToken: token,
        SecretString: newOriginSecret(),
        VersionStages: ['AWSPENDING'],
      }),
    );
    return;
  }
  // Nothing to set or test before the promotion: CloudFront is told the value only once the API accepts it.
  if (step === 'setSecret' || step === 'testSecret') return;

  if (!stages[token].includes('AWSCURRENT')) {
    const current = Object.entries(stages).find(([, s]) => s.includes('AWSCURRENT'))?.[0];
    await sm.send(
      new UpdateSecretVersionStageCommand({
        SecretId: id,
        VersionStage: 'AWSCURRENT',
        MoveToVersionId: token,
        RemoveFromVersionId: current,
      }),
    );
  }
  const value = (await sm.send(new GetSecretValueCommand({ SecretId: id, VersionId: token }))).SecretString;
  if (!value) throw new Error(`Secret version ${token} has no value`);
  await setOriginHeader(value);
}

/** Sets the origin secret header on every origin of the distribution that sends it (the API's). */
async function setOriginHeader(value: string): Promise<void> {
  const distributionId = process.env[ENV.distributionId];
  if (!distributionId) throw new Error(`${ENV.distributionId} is not set`);
  const cloudfront = new CloudFrontClient({});
  const { DistributionConfig: config, ETag } = await cloudfront.send(
    new GetDistributionConfigCommand({ Id: distributionId }),
  );
  if (!config) throw new Error(`Distribution ${distributionId} has no configuration`);
  let changed = 0;
  let found = 0;
  for (const origin of config.Origins?.Items ?? []) {
    for (const header of origin.CustomHeaders?.Items ?? []) {
      if (header.HeaderName?.toLowerCase() !== ORIGIN_VERIFY_HEADER) continue;
      found++;
      if (header.HeaderValue !== value) {
        header.HeaderValue = value;
        changed++;
      }
    }
  }
  if (!found) throw new Error(`No origin of ${distributionId} sends ${ORIGIN_VERIFY_HEADER}`);
  if (changed)
    await cloudfront.send(
      new UpdateDistributionCommand({ Id: distributionId, IfMatch: ETag, DistributionConfig: config }),
    );
  logger.info('origin secret rotated', { distribution_id: distributionId, origins_updated: changed });
}

export const handler = taskHandler('rotate-origin-secret', rotate);
