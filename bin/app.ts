#!/usr/bin/env node
import { App, Aspects } from 'aws-cdk-lib';
import { resolveConfig } from '../lib/config';
import { ToonZapStack } from '../lib/toonzap-stack';

const app = new App();
const config = resolveConfig((key) => app.node.tryGetContext(key));
new ToonZapStack(app, `ToonZap-${config.envName}`, {
  config,
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  description: `ToonZap photo-to-cartoon app (${config.envName})`,
});
void Aspects;
app.synth();
