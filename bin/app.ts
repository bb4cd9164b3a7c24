#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { buildToonZap } from '../lib/app';
import { resolveConfig } from '../lib/config';

const app = new App();
const config = resolveConfig((key) => app.node.tryGetContext(key));
buildToonZap(app, config, {
  account: process.env.CDK_DEFAULT_ACCOUNT,
  region: process.env.CDK_DEFAULT_REGION ?? process.env.AWS_REGION,
});
app.synth();
