import { SupportEmail } from '../../components/support-email';
import { useBrand } from '../../lib/config';
import { LegalPage, Section } from './legal-page';

export default function RefundPage() {
  const brand = useBrand();
  return (
    <LegalPage id="refund">
      <p>
        Because every {brand} image is generated just for you, and generation costs us compute the moment it runs,
        refunds are limited to cases where something went wrong on our side.
      </p>

      <Section title="Automatic refunds for images that are not delivered">
        <p>
          An order is made of images, one per photo and style, and you only pay for the ones you receive. When your
          order is finished, the share of your payment for every image that could not be generated, or whose photo did
          not pass our safety check, is refunded to your card automatically: you do not need to ask. The share is your
          total divided by the number of images, rounded to the cent; if nothing could be made, the whole payment is
          refunded. The order e-mail and the status page show the amount refunded and why.
        </p>
      </Section>

      <Section title="When you can ask for a refund">
        <p>We also refund orders affected by a technical failure that we could not detect ourselves, namely when:</p>
        <ul>
          <li>processing failed and you did not receive your images, and no automatic refund reached you;</li>
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
