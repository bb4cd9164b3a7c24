/** The checklist, in the order it is printed. A new check is one file and one line here. */
import type { Check } from '../types';
import { bedrockModels } from './bedrock-models';
import { bedrockQuota } from './bedrock-quota';
import { cdkBootstrap } from './cdk-bootstrap';
import { docker } from './docker';
import { identity } from './identity';
import { lambdaConcurrency } from './lambda-concurrency';
import { modelAccess } from './model-access';
import { sagemakerQuota } from './sagemaker-quota';
import { ses } from './ses';

export const CHECKS: readonly Check[] = [
  identity,
  cdkBootstrap,
  bedrockModels,
  modelAccess,
  bedrockQuota,
  ses,
  sagemakerQuota,
  lambdaConcurrency,
  docker,
];
