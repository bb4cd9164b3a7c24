import * as path from 'node:path';
import * as ecrAssets from 'aws-cdk-lib/aws-ecr-assets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { Construct } from 'constructs';
import type { EnvConfig } from './config';
import { REPO_ROOT } from './functions';

export interface EngineEndpointProps {
  readonly config: EnvConfig;
  readonly media: s3.IBucket;
}

/**
 * The cartoon engine's model server (engine/server.ts) as a SageMaker serverless inference endpoint.
 * It reads inputs from and writes outputs to the media bucket, so request payload limits never apply.
 */
export class EngineEndpoint extends Construct {
  readonly endpointName: string;
  readonly endpointArn: string;

  constructor(scope: Construct, id: string, props: EngineEndpointProps) {
    super(scope, id);
    const role = new iam.Role(this, 'ExecutionRole', {
      assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com'),
      description: 'ToonZap engine: read uploads, write previews and outputs',
    });
    props.media.grantReadWrite(role);

    let image: string;
    if (props.config.engineImageUri) {
      image = props.config.engineImageUri;
      role.addToPolicy(new iam.PolicyStatement({ actions: ['ecr:GetAuthorizationToken', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer'], resources: ['*'] }));
    } else {
      // Built from engine/Dockerfile at deploy time (cdk deploy needs Docker); synth only stages the context.
      const asset = new ecrAssets.DockerImageAsset(this, 'Image', {
        directory: REPO_ROOT,
        file: path.join('engine', 'Dockerfile'),
        platform: ecrAssets.Platform.LINUX_AMD64,
        exclude: ['node_modules', 'cdk.out', '.data', '.git', 'frontend', 'test', 'bench', 'local', 'lambdas', 'docs', '**/out'],
      });
      asset.repository.grantPull(role);
      image = asset.imageUri;
    }

    const model = new sagemaker.CfnModel(this, 'Model', {
      executionRoleArn: role.roleArn,
      primaryContainer: { image, environment: { S3_FORCE_PATH_STYLE: 'false' } },
    });
    const endpointConfig = new sagemaker.CfnEndpointConfig(this, 'Config', {
      productionVariants: [{
        modelName: model.attrModelName,
        variantName: 'engine',
        serverlessConfig: { memorySizeInMb: 6144, maxConcurrency: 10 },
      }],
    });
    const endpoint = new sagemaker.CfnEndpoint(this, 'Endpoint', { endpointConfigName: endpointConfig.attrEndpointConfigName });
    this.endpointName = endpoint.attrEndpointName;
    this.endpointArn = endpoint.ref;
  }
}
