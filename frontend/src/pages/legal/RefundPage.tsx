import { SupportEmail } from '../../components/SupportEmail';
import { useBrand } from '../../lib/config';
import { LegalPage, Section } from './LegalPage';

export default function RefundPage() {
  const brand = useBrand();
  return (
    <LegalPage
      title="Refund Policy"
      path="/refund"
      description={`When ${brand} refunds an order (technical failures), how to ask within 7 days and how long it takes.`}
    >
      <p>
        Because every {brand} image is generated just for you, and generation costs us compute the moment it runs,
        refunds are limited to cases where something went wrong on our side.
      </p>

      <Section title="When you can get a refund">
        <p>We refund orders affected by a technical failure, namely when:</p>
        <ul>
          <li>processing failed and you did not receive your images;</li>
          <li>the output is significantly different from the preview you were shown;</li>
          <li>another technical error on our side prevented you from getting what you paid for.</li>
        </ul>
      </Section>

      <Section title="When refunds are not available">
        <ul>
          <li>dissatisfaction with the look of a style you chose;</li>
          <li>a change of mind after the images were generated;</li>
          <li>not having read the style or product descriptions before ordering.</li>
        </ul>
      </Section>

      <Section title="How to request a refund">
        <p>
          Send your request within 7 days of your order to <SupportEmail /> (or reply to your order e-mail), and
          include:
        </p>
        <ul>
          <li>a description of the problem;</li>
          <li>the original image you uploaded;</li>
          <li>the failed or faulty generated image(s), if you received any.</li>
        </ul>
        <p>
          Approved refunds are processed within 5–7 business days and returned to the card used for payment. Your bank
          may need a few more days to show it.
        </p>
      </Section>
    </LegalPage>
  );
}
