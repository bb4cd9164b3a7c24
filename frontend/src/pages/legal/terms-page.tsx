import { Link } from 'react-router';
import { SupportEmail } from '../../components/support-email';
import { useBrand } from '../../lib/config';
import { LegalPage, Section } from './legal-page';

export default function TermsPage() {
  const brand = useBrand();
  return (
    <LegalPage id="terms">
      <p>
        These terms govern your use of {brand}, an online tool that turns your photos into cartoon-style artwork with
        AI. By uploading a photo or placing an order you agree to them. If you do not agree, please do not use the
        service.
      </p>

      <Section title="1. The service">
        <p>
          You upload JPG or PNG photos, choose one or more cartoon styles, pay per generated image by card, and receive
          your generated images through a download link sent to the e-mail address you give us. No account is needed.
        </p>
      </Section>

      <Section title="2. Your content">
        <p>You may only upload photos you own or have permission to use. Uploaded content must not be:</p>
        <ul>
          <li>illegal, or show or promote illegal activity;</li>
          <li>nude, sexual or otherwise not safe for work (NSFW);</li>
          <li>infringing on anyone else's copyright, trademark, privacy or other rights;</li>
          <li>hateful, harassing, or discriminatory.</li>
        </ul>
        <p>
          Every upload is checked automatically before it is processed. Photos that fail this check are not processed.
          We may refuse service to, or block, anyone who abuses the service or breaks these rules.
        </p>
      </Section>

      <Section title="3. Generated images and usage rights">
        <p>
          You keep the rights you hold in your original photos. Subject to these terms and to payment of your order, you
          may use the images generated for you for your own purposes, including printing them and sharing them online,
          provided that your use does not infringe the rights of others (for example, of people shown in the photo).
        </p>
        <p>
          AI output varies: results depend on the photo and the style chosen, and no two generations are guaranteed to
          look the same.
        </p>
      </Section>

      <Section title="4. Orders and payment">
        <p>
          Prices are shown on our <Link to="/pricing">Pricing</Link> page and in the order summary before you pay.
          Payments are processed by our card payment provider; we do not see or store your full card details.
        </p>
        <p>
          Generated outputs are final. Refunds are available only for technical failures, as described in our{' '}
          <Link to="/refund">Refund Policy</Link>.
        </p>
      </Section>

      <Section title="5. Download links">
        <p>Links to your images expire after a short time. Please download your images as soon as you receive them.</p>
      </Section>

      <Section title="6. Availability and liability">
        <p>
          We work to keep {brand} available and reliable, but the service is provided "as is" without warranties of any
          kind. To the extent permitted by law, our liability for any claim related to the service is limited to the
          amount you paid for the order concerned.
        </p>
      </Section>

      <Section title="7. Privacy">
        <p>
          How we handle your photos and e-mail address is explained in our <Link to="/privacy">Privacy Policy</Link>.
        </p>
      </Section>

      <Section title="8. Contact">
        <p>
          Questions about these terms, your order or your data: write to <SupportEmail />.
        </p>
      </Section>

      <Section title="9. Changes">
        <p>
          We may update these terms from time to time. The version published on this page applies to orders placed after
          its "last updated" date.
        </p>
      </Section>
    </LegalPage>
  );
}
