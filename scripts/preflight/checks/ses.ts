/**
 * SES in the app's region: out of the sandbox (a sandboxed account sends only to verified addresses, so customers'
 * order e-mails fail), sending enabled, and config.mailFrom verified as an address or domain identity.
 */
import { GetAccountCommand, GetEmailIdentityCommand } from '@aws-sdk/client-sesv2';
import { senderIdentities } from '../../../domain/email';
import { type Check, errorName, type Finding, type PreflightContext } from '../types';

export const ses: Check = {
  title: 'SES production access and sender',
  needsAccount: true,
  async run(ctx) {
    const region = ctx.region!;
    const client = ctx.clients.sesv2(region);
    const account = await client.send(new GetAccountCommand({}));
    const out: Finding[] = [];
    out.push(
      account.ProductionAccessEnabled
        ? { status: 'pass', title: 'SES production access', detail: `out of the sandbox in ${region}` }
        : {
            status: 'fail',
            title: 'SES production access',
            detail: `the account is in the SES sandbox in ${region}: mail goes only to verified addresses`,
            fix:
              `request production access: aws sesv2 put-account-details --production-access-enabled --mail-type TRANSACTIONAL ` +
              `--website-url <site URL> --use-case-description "order receipts" --region ${region} (AWS answers within a day)`,
          },
    );
    out.push(
      account.SendingEnabled === false
        ? {
            status: 'fail',
            title: 'SES sending',
            detail: `sending is paused for the account in ${region}`,
            fix: `aws sesv2 put-account-sending-attributes --sending-enabled --region ${region} (if AWS paused it, answer its case first)`,
          }
        : { status: 'pass', title: 'SES sending', detail: 'enabled' },
    );
    out.push(await senderFinding(ctx, region));
    return out;
  },
};

async function senderFinding(ctx: PreflightContext, region: string): Promise<Finding> {
  const title = `SES sender ${ctx.config.mailFrom}`;
  const { address, domain } = senderIdentities(ctx.config.mailFrom);
  const client = ctx.clients.sesv2(region);
  const pending: string[] = [];
  for (const identity of [address, domain]) {
    try {
      const out = await client.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
      if (out.VerifiedForSendingStatus) return { status: 'pass', title, detail: `identity ${identity} verified` };
      pending.push(`${identity} (${out.DkimAttributes?.Status ?? 'not verified'})`);
    } catch (e) {
      if (errorName(e) !== 'NotFoundException') throw e;
    }
  }
  return {
    status: 'fail',
    title,
    detail: pending.length
      ? `identity not verified yet: ${pending.join(', ')}`
      : `neither ${address} nor ${domain} is an SES identity in ${region}`,
    fix: pending.length
      ? `publish the DKIM CNAME records: aws sesv2 get-email-identity --email-identity ${domain} --region ${region}`
      : `aws sesv2 create-email-identity --email-identity ${domain} --region ${region}, then publish its three DKIM CNAME ` +
        'records (or deploy with -c mailFrom=<an address on a domain you own>)',
  };
}
