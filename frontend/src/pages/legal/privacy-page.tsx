import { RETENTION_DAYS } from '../../../../domain/privacy';
import { SmartLink } from '../../components/smart-link';
import { SupportEmail } from '../../components/support-email';
import { useBrand } from '../../lib/config';
import { LegalPage, Section } from './legal-page';

const days = (n: number) => (n % 365 === 0 ? `${n / 365} ${n === 365 ? 'year' : 'years'}` : `${n} days`);

export default function PrivacyPage() {
  const brand = useBrand();
  return (
    <LegalPage id="privacy">
      <p>
        {brand} turns your photos into cartoon-style artwork. This policy explains what we collect to do that, why, and
        the rights you have over your data.
      </p>

      <Section title="1. What we collect">
        <ul>
          <li>
            <strong>Uploaded images</strong> – the photos you upload, and the images we generate from them.
          </li>
          <li>
            <strong>E-mail address</strong> – given at checkout (to send your download link) or when you ask to be
            notified about our launch.
          </li>
          <li>
            <strong>Usage data</strong> – technical information such as requests made to our servers, the styles chosen
            and error reports, used to run and improve the service.
          </li>
        </ul>
        <p>
          We do not need an account, and we never receive your full card details: payments are handled by our card
          payment provider.
        </p>
      </Section>

      <Section title="2. How we use it">
        <ul>
          <li>to check uploads against our content rules, create previews and generate the images you order;</li>
          <li>to send your download link and messages about your order, or the launch announcement you asked for;</li>
          <li>to prevent abuse, fix problems and keep the service secure.</li>
        </ul>
      </Section>

      <Section title="3. Who can see your photos and images">
        <ul>
          <li>
            <strong>Your photo, its check and its previews</strong> – only the browser that uploaded it. When you
            upload, we give your browser a private key (a cookie that page scripts cannot read) and every request about
            the photo must carry it. Someone else who has the same picture must upload it themselves, and then sees only
            their own copy: never your orders or images.
          </li>
          <li>
            <strong>Your order and its images</strong> – whoever has the order's status link (in your order e-mail).
            Keep it to yourself: it can also delete the order's photos and images.
          </li>
          <li>
            <strong>A shared image or gallery</strong> – whoever has that share link: it shows the images of that one
            photo in that one order, and nothing else. Social networks show its picture when the link is posted; search
            engines are asked not to list it. Deleting the order makes the link stop working.
          </li>
        </ul>
      </Section>

      <Section title="4. How long we keep it">
        <p>We keep your data only as long as we need it, and then delete it automatically:</p>
        <ul>
          <li>
            uploaded photos: {days(RETENTION_DAYS.uploads)} after upload (a photo uploaded but never checked:{' '}
            {RETENTION_DAYS.uncheckedUploads === 1 ? '1 day' : days(RETENTION_DAYS.uncheckedUploads)}; a photo our check
            refuses: deleted at once), and the record of their check: {`${days(RETENTION_DAYS.imageRecords)};`}
          </li>
          <li>watermarked previews: {days(RETENTION_DAYS.previews)};</li>
          <li>generated images: {days(RETENTION_DAYS.outputs)} after they are made;</li>
          <li>orders that were never paid (with the e-mail address given): {days(RETENTION_DAYS.unpaidOrders)};</li>
          <li>launch sign-ups (your e-mail address): {days(RETENTION_DAYS.signups)};</li>
          <li>background processing records: {days(RETENTION_DAYS.jobs)}.</li>
        </ul>
        <p>
          For paid orders we keep what accounting law requires – the amount, date and payment reference – and, until you
          delete it, the e-mail address the order was sent to. Download links expire after a short time.
        </p>
      </Section>

      <Section title="5. Who we share it with">
        <p>
          We use trusted service providers for cloud hosting and storage, image processing, e-mail delivery and card
          payments. They process data only on our behalf and for these purposes. We do not sell your data.
        </p>
      </Section>

      <Section title="6. Your rights (GDPR)">
        <p>If you are in the European Economic Area or the United Kingdom, you have the right to:</p>
        <ul>
          <li>access the personal data we hold about you;</li>
          <li>have it corrected, or deleted;</li>
          <li>
            withdraw your consent at any time, for example to launch e-mails, without affecting earlier processing.
          </li>
        </ul>
        <p>
          You can delete an order's images, its share links and your e-mail address yourself: open the order's status
          page (the link in your order e-mail) and choose "Delete my photos and images". The photo itself is deleted
          with it unless another of your orders still uses it (or someone else uploaded the same picture, whose copy
          stays theirs). To delete everything tied to your e-mail address (all orders and launch sign-ups),{' '}
          <SmartLink to="/forget">ask for a link</SmartLink>: we send it to that address, so only you can confirm. For
          anything else, write to <SupportEmail /> or reply to any e-mail you have received from us. You may also
          complain to your local data protection authority.
        </p>
      </Section>

      <Section title="7. Changes">
        <p>We may update this policy. The version on this page is the one in force.</p>
      </Section>
    </LegalPage>
  );
}
