import * as fs from 'node:fs';
import * as path from 'node:path';
import { Annotations, CfnOutput, Fn, RemovalPolicy } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import type * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { API_ORIGIN_PATHS } from '../domain/api-routes';
import { FRONTEND_DIST, REPO_ROOT } from '../domain/repo-paths';
import { HASHED_DIRS, IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from '../frontend/build/cache-control';
import { LOCAL_SITE_URL } from '../frontend/build/site-url';
import {
  FALLBACK_NOT_FOUND_HTML,
  MAX_FUNCTION_BYTES,
  NOT_FOUND_FILE,
  pageFile,
  prerenderedPaths,
  siteFunctionCode,
} from './site-function';

export interface SiteProps {
  readonly httpApi: apigw.HttpApi;
  /** Security headers and Content-Security-Policy of every site response (lib/site-headers.ts). */
  readonly responseHeadersPolicy: cloudfront.IResponseHeadersPolicy;
  /** Headers CloudFront adds to API requests (the origin secret the API checks). */
  readonly apiOriginHeaders: Record<string, string>;
  /** Standard access logs go here, under `cloudfront/`. */
  readonly logBucket: s3.IBucket;
  /** WAF web ACL (CloudFront scope, made in us-east-1: lib/edge.ts). */
  readonly webAclArn?: string;
  /** Custom domain and its ACM certificate (us-east-1); without one, CloudFront's default certificate is used. */
  readonly domain?: { readonly names: string[]; readonly certificate: acm.ICertificate };
}

/** The built not-found page (the body of every 404), or a plain one when the frontend is not built. */
function notFoundHtml(): string {
  const built = path.join(FRONTEND_DIST, NOT_FOUND_FILE);
  return fs.existsSync(built) ? fs.readFileSync(built, 'utf8') : FALLBACK_NOT_FOUND_HTML;
}

/**
 * Private site bucket behind CloudFront (origin access control). `/api/*` goes to the HTTP API uncached;
 * everything else is the site: a CloudFront Function generated from the route list (lib/site-function.ts)
 * maps prerendered pages to their index.html, app routes to the app shell and answers 404 for the rest
 * (at the edge, so API errors are never swapped for the app shell as error pages would).
 */
export class Site extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: SiteProps) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'SiteBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: true,
      serverAccessLogsBucket: props.logBucket,
      serverAccessLogsPrefix: 'site/',
    });

    const prerendered = prerenderedPaths(REPO_ROOT);
    const code = siteFunctionCode({ prerendered, notFoundHtml: notFoundHtml() });
    if (Buffer.byteLength(code) > MAX_FUNCTION_BYTES) {
      Annotations.of(this).addError(
        `The site's CloudFront Function is ${Buffer.byteLength(code)} bytes, over the ${MAX_FUNCTION_BYTES} allowed`,
      );
    }
    const siteRouter = new cloudfront.Function(this, 'SiteRouter', {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'Prerendered pages, app routes and 404s (generated from domain/site-routes.ts)',
      code: cloudfront.FunctionCode.fromInline(code),
    });

    const apiDomain = Fn.select(2, Fn.split('/', props.httpApi.apiEndpoint));
    const apiOrigin = new origins.HttpOrigin(apiDomain, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      customHeaders: props.apiOriginHeaders,
    });
    // The API's paths, uncached. Share pages (/image/*) are HTML the API makes from the app shell with each share's
    // own social card, so they get the site's headers (CSP included) like every page.
    const apiBehaviours = Object.fromEntries(
      API_ORIGIN_PATHS.map((pattern): [string, cloudfront.BehaviorOptions] => [
        pattern,
        {
          origin: apiOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          ...(pattern === '/api/*'
            ? {}
            : {
                responseHeadersPolicy: props.responseHeadersPolicy,
                viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
              }),
        },
      ]),
    );
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'ToonZap site and API',
      defaultRootObject: 'index.html',
      // TLS 1.2+ takes effect with a custom certificate only; the default *.cloudfront.net one accepts TLSv1.
      minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      certificate: props.domain?.certificate,
      domainNames: props.domain?.names,
      webAclId: props.webAclArn,
      enableLogging: true,
      logBucket: props.logBucket,
      logFilePrefix: 'cloudfront/',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      // IPv4 only: the WAF's per-client limits count one address as one client (lib/edge.ts), which holds for IPv4
      // but not for IPv6, where one host has a /64 of addresses and WAF cannot aggregate by prefix. Every IPv6
      // viewer network also reaches IPv4 (dual stack or NAT64), so nobody is shut out.
      enableIpv6: false,
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: props.responseHeadersPolicy,
        functionAssociations: [{ function: siteRouter, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
      additionalBehaviors: apiBehaviours,
    });

    if (fs.existsSync(path.join(FRONTEND_DIST, 'index.html'))) {
      // A Markdown file added after the build would be routed to a page the bucket does not have.
      const missing = prerendered.filter((p) => !fs.existsSync(path.join(FRONTEND_DIST, pageFile(p))));
      const origin = fs.existsSync(path.join(FRONTEND_DIST, '.build-site-url'))
        ? fs.readFileSync(path.join(FRONTEND_DIST, '.build-site-url'), 'utf8')
        : '';
      if (origin === LOCAL_SITE_URL) {
        Annotations.of(this).addWarningV2(
          'toonzap:site-url',
          `The prerendered pages name ${origin} in canonical and social URLs: build with PUBLIC_SITE_URL=https://<your domain> before deploying.`,
        );
      }
      if (missing.length) {
        Annotations.of(this).addError(
          `frontend/dist is older than the content (${missing.slice(0, 3).join(', ')} not built): run \`npm run build:frontend\``,
        );
      }
      // Two uploads of the one build, each with its files' Cache-Control (frontend/build/cache-control.ts). The
      // hashed files go first and are never pruned: a page a browser or CloudFront still holds from an earlier
      // deploy keeps finding its chunks. Then the pages and other unhashed files, pruned of what the build no
      // longer has (the hashed folders are outside their filter, so pruning leaves them), and CloudFront forgets
      // its copies of them.
      const source = s3deploy.Source.asset(FRONTEND_DIST, { exclude: ['.build-site-url'] });
      const hashed = HASHED_DIRS.map((dir) => `${dir}/*`);
      const hashedFiles = new s3deploy.BucketDeployment(this, 'DeployHashedFiles', {
        sources: [source],
        destinationBucket: this.bucket,
        exclude: ['*'],
        include: hashed,
        prune: false,
        cacheControl: [s3deploy.CacheControl.fromString(IMMUTABLE_CACHE_CONTROL)],
      });
      const pages = new s3deploy.BucketDeployment(this, 'DeploySite', {
        sources: [source],
        destinationBucket: this.bucket,
        exclude: hashed,
        cacheControl: [s3deploy.CacheControl.fromString(REVALIDATE_CACHE_CONTROL)],
        distribution: this.distribution,
        distributionPaths: ['/*'],
      });
      pages.node.addDependency(hashedFiles);
    } else {
      Annotations.of(this).addWarningV2(
        'toonzap:no-frontend',
        'frontend/dist is missing: run `npm run build:frontend` before deploying (npm run deploy does).',
      );
    }

    new CfnOutput(scope, 'SiteUrl', {
      value: `https://${this.distribution.distributionDomainName}`,
      description: 'Public site URL',
    });
  }
}
