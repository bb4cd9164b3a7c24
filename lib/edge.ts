import { Stack, type StackProps } from 'aws-cdk-lib';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { ROUTES } from '../domain/api-routes';
import type { EnvConfig } from './config';

/** CloudFront-scope web ACLs exist only in us-east-1, whatever region the app is in. */
export const EDGE_REGION = 'us-east-1';

export interface EdgeStackProps extends StackProps {
  readonly config: EnvConfig;
}

/**
 * The routes that start paid-for work (domain/api-routes.ts `startsWork`), as the WAF sees them: a plain path exactly,
 * a path with parameters (`/api/generation/{id}/delete`) as an anchored regular expression, each parameter one
 * segment, so no other route's path can match it.
 */
export type WorkPath = { readonly exact: string } | { readonly regex: string };
export const WORK_PATHS: readonly WorkPath[] = ROUTES.filter((r) => r.startsWork).map((r) =>
  r.path.includes('{')
    ? { regex: `^${r.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$` }
    : { exact: r.path },
);

/**
 * What anonymous callers may spend, enforced before a request reaches anything billable: the WAF web ACL in front of
 * CloudFront. Per client IP: a stricter rate on the routes that start work (a model call, an execution, a Checkout
 * Session, a stored record, an upload, an erasure), a general rate on everything, and the AWS managed common rule set.
 * Blocked requests get 429 with a JSON `detail`, as the API's own errors.
 *
 * A client is one IPv4 address: the distribution serves IPv4 only (lib/site.ts). A rate-based rule counts each
 * distinct address apart and offers no IPv6 prefix as a key (AWS WAF developer guide, "Aggregating rate-based rules":
 * IP, forwarded IP, ASN, headers, cookies, query, method, path, label, JA3/JA4 fingerprints); one host holds a whole
 * /64 (2^64 addresses), so over IPv6 each limit would be per address, not per client. ASN would count a whole ISP as
 * one client. An IPv4 address is scarce: many addresses cost an attacker real money.
 *
 * It is its own stack because CloudFront's web ACLs must live in us-east-1; the app's stack (any region) reads the
 * ACL's ARN through CDK's cross-region references (lib/app.ts).
 */
export class EdgeStack extends Stack {
  readonly webAclArn: string;

  constructor(scope: Construct, id: string, props: EdgeStackProps) {
    super(scope, id, props);
    if (!this.region || this.region !== EDGE_REGION)
      throw new Error(`${id} must be deployed in ${EDGE_REGION} (CloudFront web ACLs live there)`);
    const { config } = props;
    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const tooMany: wafv2.CfnWebACL.RuleActionProperty = {
      block: { customResponse: { responseCode: 429, customResponseBodyKey: 'too-many' } },
    };
    const asIs = [{ priority: 0, type: 'NONE' }];
    const pathIs = (path: WorkPath): wafv2.CfnWebACL.StatementProperty =>
      'exact' in path
        ? {
            byteMatchStatement: {
              fieldToMatch: { uriPath: {} },
              positionalConstraint: 'EXACTLY',
              searchString: path.exact,
              textTransformations: asIs,
            },
          }
        : {
            regexMatchStatement: { fieldToMatch: { uriPath: {} }, regexString: path.regex, textTransformations: asIs },
          };

    const acl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name: `toonzap-${config.envName}`,
      description: `ToonZap ${config.envName}: per-client rate limits and common protections`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(`toonzap-${config.envName}`),
      customResponseBodies: {
        'too-many': {
          contentType: 'APPLICATION_JSON',
          content: '{"detail":"Too many requests. Please wait a few minutes and try again."}',
        },
      },
      rules: [
        {
          name: 'work-routes-per-ip',
          priority: 0,
          action: tooMany,
          statement: {
            rateBasedStatement: {
              aggregateKeyType: 'IP',
              evaluationWindowSec: 300,
              limit: config.workRateLimitPer5Min,
              scopeDownStatement:
                WORK_PATHS.length === 1
                  ? pathIs(WORK_PATHS[0])
                  : { orStatement: { statements: WORK_PATHS.map(pathIs) } },
            },
          },
          visibilityConfig: visibility('work-routes-per-ip'),
        },
        {
          name: 'all-routes-per-ip',
          priority: 1,
          action: tooMany,
          statement: {
            rateBasedStatement: { aggregateKeyType: 'IP', evaluationWindowSec: 300, limit: config.rateLimitPer5Min },
          },
          visibilityConfig: visibility('all-routes-per-ip'),
        },
        {
          name: 'aws-common-rule-set',
          priority: 2,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              // Stripe's signed webhook events can exceed the rule set's 8 KB body limit; photos never pass through
              // the API (they are PUT to S3), and the API limits its own bodies. Counted, not blocked.
              ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
            },
          },
          visibilityConfig: visibility('aws-common-rule-set'),
        },
      ],
    });
    this.webAclArn = acl.attrArn;
  }
}
