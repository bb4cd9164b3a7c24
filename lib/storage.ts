import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { MEDIA_PREFIX, mediaKey, TABLE_INDEXES, TABLES, type TableName } from '../domain/wiring';
import type { EnvConfig } from './config';

/**
 * Grants one action on the objects under one media prefix: read = GetObject (GET, HEAD, presigned downloads);
 * write = PutObject (also presigned uploads); delete = DeleteObject.
 *
 * read and delete also get s3:ListBucket, never on the whole bucket: only a listing whose `s3:prefix` is under this
 * prefix (`StringLike`: a listing that names no prefix carries no `s3:prefix` key, and is refused). Delete needs it
 * because erasure lists a photo's files before deleting them (lambdas/lib/erasure.ts); read, because S3 answers a
 * GET or HEAD of a missing key 403, not 404, to a caller who may not list the bucket, and lambdas/lib/media.ts then
 * lists that one key to tell a missing object from a refusal.
 */
export function grantMedia(
  media: s3.IBucket,
  grantee: iam.IGrantable,
  prefix: string,
  action: 'read' | 'write' | 'delete',
): void {
  const actions = { read: ['s3:GetObject'], write: ['s3:PutObject'], delete: ['s3:DeleteObject'] }[action];
  iam.Grant.addToPrincipal({ grantee, actions, resourceArns: [media.arnForObjects(`${prefix}*`)] });
  if (action !== 'write')
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [media.bucketArn],
        conditions: { StringLike: { 's3:prefix': [`${prefix}*`] } },
      }),
    );
}

export interface StorageProps {
  readonly config: EnvConfig;
  /** Browser origins allowed to PUT uploads and GET images (the site). */
  readonly corsOrigins: string[];
}

/** Data: DynamoDB tables (on demand, point-in-time recovery) and the private media bucket. */
export class Storage extends Construct {
  readonly tables: Record<TableName, dynamodb.Table>;
  readonly media: s3.Bucket;
  /** Server access logs of the media and site buckets and the CloudFront distribution's standard logs. */
  readonly accessLogs: s3.Bucket;

  constructor(scope: Construct, id: string, props: StorageProps) {
    super(scope, id);
    const removalPolicy = props.config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    const tables = {} as Record<TableName, dynamodb.Table>;
    for (const [name, key] of Object.entries(TABLES) as [TableName, string][]) {
      tables[name] = new dynamodb.Table(this, `${name[0].toUpperCase()}${name.slice(1)}Table`, {
        partitionKey: { name: key, type: dynamodb.AttributeType.STRING },
        billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        // Records carry their end of life in `expires_at` (domain/privacy.ts: unpaid orders, sign-ups, image records, jobs).
        timeToLiveAttribute: 'expires_at',
        encryption: dynamodb.TableEncryption.AWS_MANAGED,
        removalPolicy,
      });
      const index = TABLE_INDEXES[name];
      if (index) {
        tables[name].addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: { name: index.key, type: dynamodb.AttributeType.STRING },
        });
      }
    }
    this.tables = tables;

    // CloudFront's standard logs are delivered with object ACLs, hence BUCKET_OWNER_PREFERRED (still private:
    // public access is blocked). Kept 90 days.
    this.accessLogs = new s3.Bucket(this, 'AccessLogsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      removalPolicy,
      autoDeleteObjects: !props.config.retainData,
      lifecycleRules: [{ id: 'expire-logs', expiration: Duration.days(90) }],
    });

    const days = props.config.retention;
    this.media = new s3.Bucket(this, 'MediaBucket', {
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'media/',
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy,
      autoDeleteObjects: !props.config.retainData,
      cors: [
        {
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET, s3.HttpMethods.HEAD],
          allowedOrigins: props.corsOrigins,
          // The presigned upload signs these; the browser sends them (Content-Length it sets itself).
          allowedHeaders: ['Content-Type', 'Content-Length', 'x-amz-checksum-sha256', 'If-None-Match'],
          exposedHeaders: ['ETag'],
          maxAge: 3600,
        },
      ],
      lifecycleRules: [
        { id: 'expire-uploads', prefix: MEDIA_PREFIX.uploads, expiration: Duration.days(days.uploads) },
        // overlaps the rule above: S3 honours the shorter expiration (S3 user guide, lifecycle conflicts)
        {
          id: 'expire-unchecked-uploads',
          prefix: mediaKey.proof(''),
          expiration: Duration.days(days.uncheckedUploads),
        },
        { id: 'expire-previews', prefix: MEDIA_PREFIX.previews, expiration: Duration.days(days.previews) },
        { id: 'expire-outputs', prefix: MEDIA_PREFIX.outputs, expiration: Duration.days(days.outputs) },
        // a share's picture lives as long as the images it shows
        { id: 'expire-shares', prefix: MEDIA_PREFIX.shares, expiration: Duration.days(days.outputs) },
        // derived from an upload (face landmarks): kept no longer than the upload itself
        { id: 'expire-analysis', prefix: MEDIA_PREFIX.analysis, expiration: Duration.days(days.uploads) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
  }
}
