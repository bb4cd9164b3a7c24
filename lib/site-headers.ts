import { Duration } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import {
  COMMON_SECURITY_HEADERS,
  contentSecurityPolicy,
  HSTS_SECONDS,
  type SiteHeaderOptions,
} from '../domain/security-headers';

/**
 * The site's headers (domain/security-headers.ts) as a CloudFront response headers policy. CloudFront sets its
 * security headers through typed fields and refuses them as custom headers, so the common ones are mapped here;
 * the rest are custom headers. A test checks that this policy and the local gateway send the same values.
 */
export function siteResponseHeadersPolicy(
  scope: Construct,
  id: string,
  o: SiteHeaderOptions,
): cloudfront.ResponseHeadersPolicy {
  const {
    'x-content-type-options': _nosniff,
    'x-frame-options': _frame,
    'referrer-policy': _referrer,
    ...custom
  } = COMMON_SECURITY_HEADERS;
  return new cloudfront.ResponseHeadersPolicy(scope, id, {
    comment: 'ToonZap site: CSP and security headers',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: contentSecurityPolicy(o), override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
      referrerPolicy: {
        referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
        override: true,
      },
      strictTransportSecurity: {
        accessControlMaxAge: Duration.seconds(HSTS_SECONDS),
        includeSubdomains: true,
        override: true,
      },
    },
    customHeadersBehavior: {
      customHeaders: Object.entries(custom).map(([header, value]) => ({ header, value, override: true })),
    },
  });
}
