import { Duration, type Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { ENV } from '../domain/wiring';
import { handlerFunction } from './functions';
import type { Site } from './site';

/** How often the CloudFront → API origin secret is replaced (a leaked value works at most this long, plus one period). */
export const ORIGIN_SECRET_ROTATION_DAYS = 30;

/**
 * Rotation of the origin secret (lambdas/rotation/origin-secret.ts): Secrets Manager calls it every
 * ORIGIN_SECRET_ROTATION_DAYS; it promotes a new value and then sets it as the distribution's origin header. The
 * API accepts the current and the previous value, so the minutes CloudFront takes to send the new one refuse
 * nothing. A deploy after a rotation sets the header from the secret's current value: the same one.
 */
export function rotateOriginSecret(
  stack: Stack,
  secret: secretsmanager.Secret,
  site: Site,
  environment: Record<string, string>,
): lambda.Function {
  const fn = handlerFunction(stack, 'OriginSecretRotation', {
    entry: 'lambdas/rotation/origin-secret.ts',
    // The settings every function sees (it reads none of the tables or buckets named there: no grant for them).
    environment: { ...environment, [ENV.distributionId]: site.distribution.distributionId },
    timeoutSeconds: 60,
  });
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'],
      resources: [
        stack.formatArn({
          service: 'cloudfront',
          region: '',
          resource: 'distribution',
          resourceName: site.distribution.distributionId,
        }),
      ],
    }),
  );
  secret.addRotationSchedule('Rotation', {
    rotationLambda: fn,
    automaticallyAfter: Duration.days(ORIGIN_SECRET_ROTATION_DAYS),
  });
  return fn;
}
