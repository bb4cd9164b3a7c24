import * as path from 'node:path';
import { Stack } from 'aws-cdk-lib';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as ecrAssets from 'aws-cdk-lib/aws-ecr-assets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import { REPO_ROOT } from '../domain/repo-paths';
import { MEDIA_PREFIX } from '../domain/wiring';
import type { EnvConfig } from './config';
import { grantMedia } from './storage';

export interface EngineEndpointProps {
  readonly config: EnvConfig;
  readonly media: s3.IBucket;
}

/** `<account>.dkr.ecr.<region>.amazonaws.com/<repo>[:tag|@digest]` → the repository's ARN. */
export function repositoryArnOf(imageUri: string): string {
  const m = /^(\d{12})\.dkr\.ecr\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\/([^:@]+)/.exec(imageUri);
  if (!m)
    throw new Error(
      `engineImageUri "${imageUri}" is not an ECR image URI (<account>.dkr.ecr.<region>.amazonaws.com/<repository>:<tag>)`,
    );
  const partition = m[2].startsWith('cn-') ? 'aws-cn' : m[2].startsWith('us-gov-') ? 'aws-us-gov' : 'aws';
  return `arn:${partition}:ecr:${m[2]}:${m[1]}:repository/${m[3]}`;
}

/** The endpoint's one production variant (alarms and dashboard name it). */
export const ENGINE_VARIANT = 'engine';

/**
 * The cartoon engine's model server (engine/server.ts) as a SageMaker serverless inference endpoint.
 * It reads inputs from and writes outputs to the media bucket, so request payload limits never apply.
 */
export class EngineEndpoint extends Construct {
  readonly endpointName: string;
  readonly endpointArn: string;
  readonly role: iam.Role;

  constructor(scope: Construct, id: string, props: EngineEndpointProps) {
    super(scope, id);
    const role = new iam.Role(this, 'ExecutionRole', {
      assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com'),
      description: 'ToonZap engine: read uploads, write previews, read and write outputs, cache photo analyses',
    });
    this.role = role;
    // The model server reads uploaded photos, writes previews and paid outputs, reads the paid generative images its
    // quality gate checks (the `check` operation), and keeps each photo's analysis (analysis/<sha256>.json, read
    // and written): nothing else in the bucket.
    grantMedia(props.media, role, MEDIA_PREFIX.uploads, 'read');
    grantMedia(props.media, role, MEDIA_PREFIX.previews, 'write');
    grantMedia(props.media, role, MEDIA_PREFIX.outputs, 'read');
    grantMedia(props.media, role, MEDIA_PREFIX.outputs, 'write');
    grantMedia(props.media, role, MEDIA_PREFIX.analysis, 'read');
    grantMedia(props.media, role, MEDIA_PREFIX.analysis, 'write');

    let image: string;
    if (props.config.engineImageUri) {
      image = props.config.engineImageUri;
      // Pull from that one repository only (GetAuthorizationToken has no resource scope in IAM).
      ecr.Repository.fromRepositoryArn(this, 'Repository', repositoryArnOf(image)).grantPull(role);
    } else {
      // Built from engine/Dockerfile at deploy time (cdk deploy needs Docker); synth only stages the context.
      const asset = new ecrAssets.DockerImageAsset(this, 'Image', {
        directory: REPO_ROOT,
        file: path.join('engine', 'Dockerfile'),
        platform: ecrAssets.Platform.LINUX_AMD64,
        exclude: [
          'node_modules',
          'cdk.out',
          '.data',
          '.git',
          'frontend',
          'test',
          'bench',
          'local',
          'lambdas',
          'docs',
          '**/out',
        ],
      });
      asset.repository.grantPull(role);
      image = asset.imageUri;
    }

    const model = new sagemaker.CfnModel(this, 'Model', {
      executionRoleArn: role.roleArn,
      // The container's S3 client finds its region only in the environment (without it: "Region is missing").
      primaryContainer: { image, environment: { S3_FORCE_PATH_STYLE: 'false', AWS_REGION: Stack.of(this).region } },
    });
    // SageMaker checks it can pull the image when the model is created: the role's grants (ECR pull, S3) must
    // exist by then, or creation fails now and then with BatchGetImage denied.
    const policy = role.node.tryFindChild('DefaultPolicy');
    if (policy) model.node.addDependency(policy);
    const endpointConfig = new sagemaker.CfnEndpointConfig(this, 'Config', {
      productionVariants: [
        {
          modelName: model.attrModelName,
          variantName: ENGINE_VARIANT,
          serverlessConfig: {
            memorySizeInMb: 6144,
            maxConcurrency: props.config.engineMaxConcurrency,
            // Warm instances: nobody waits for a cold engine (0 = none; SageMaker refuses 0, so it is left out).
            ...(props.config.engineProvisionedConcurrency > 0
              ? { provisionedConcurrency: props.config.engineProvisionedConcurrency }
              : {}),
          },
        },
      ],
    });
    const endpoint = new sagemaker.CfnEndpoint(this, 'Endpoint', {
      endpointConfigName: endpointConfig.attrEndpointConfigName,
    });
    this.endpointName = endpoint.attrEndpointName;
    this.endpointArn = endpoint.ref;
  }
}
