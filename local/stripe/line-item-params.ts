import { isSupportedCurrency, MAX_AMOUNT } from './money';
import {
  checkKnown,
  type FormObject,
  invalid,
  isHttpUrl,
  missing,
  noSuch,
  optArray,
  optEnum,
  optInt,
  optMetadata,
  optObject,
  optString,
  reqString,
} from './params';
import { type LineItem, type ProductInfo, randomId } from './store';

const LINE_ITEM_PARAMS = [
  'adjustable_quantity',
  'dynamic_tax_rates',
  'metadata',
  'price',
  'price_data',
  'quantity',
  'tax_rates',
];
const PRICE_DATA_PARAMS = [
  'currency',
  'product',
  'product_data',
  'recurring',
  'tax_behavior',
  'unit_amount',
  'unit_amount_decimal',
];
const PRODUCT_DATA_PARAMS = ['description', 'images', 'metadata', 'name', 'tax_code', 'tax_details', 'unit_label'];

export function parseLineItems(
  params: FormObject,
  now: number,
): { lineItems: LineItem[]; products: ProductInfo[]; currency: string } {
  const items = optArray(params, 'line_items');
  if (!items || items.length === 0) throw missing('line_items');
  if (items.length > 100) throw invalid('`line_items` must have at most 100 items.', 'line_items');
  const lineItems: LineItem[] = [];
  const products: ProductInfo[] = [];
  let currency: string | undefined;
  items.forEach((item, i) => {
    const p = `line_items[${i}]`;
    if (typeof item !== 'object') throw invalid('Invalid hash', p);
    checkKnown(item, LINE_ITEM_PARAMS, p);
    const priceId = optString(item, 'price', p);
    if (priceId) throw noSuch('price', priceId, `${p}[price]`);
    const taxRates = optArray(item, 'tax_rates', p);
    if (taxRates?.length) throw noSuch('tax_rate', String(taxRates[0]), `${p}[tax_rates][0]`);
    const pd = optObject(item, 'price_data', p);
    if (!pd) throw invalid(`You must specify either \`price\` or \`price_data\` in \`${p}\`.`, p, 'parameter_missing');
    const pp = `${p}[price_data]`;
    checkKnown(pd, PRICE_DATA_PARAMS, pp);
    const cur = reqString(pd, 'currency', pp).toLowerCase();
    if (!isSupportedCurrency(cur)) throw invalid(`Invalid currency: ${cur}.`, `${pp}[currency]`);
    if (currency !== undefined && cur !== currency) {
      throw invalid('All line items must use the same currency.', `${pp}[currency]`);
    }
    currency = cur;
    if (pd.recurring !== undefined && pd.recurring !== '') {
      throw invalid(
        'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
        `${pp}[recurring]`,
      );
    }
    const productId = optString(pd, 'product', pp);
    if (productId) throw noSuch('product', productId, `${pp}[product]`);
    const prod = optObject(pd, 'product_data', pp);
    if (!prod) throw missing(`${pp}[product_data]`);
    const pdp = `${pp}[product_data]`;
    checkKnown(prod, PRODUCT_DATA_PARAMS, pdp);
    const name = reqString(prod, 'name', pdp, 250);
    const description = optString(prod, 'description', pdp, 40000) ?? null;
    const images = (optArray(prod, 'images', pdp) ?? []).map((v, j) => {
      if (typeof v !== 'string' || !isHttpUrl(v))
        throw invalid('Not a valid URL', `${pdp}[images][${j}]`, 'url_invalid');
      return v;
    });
    if (images.length > 8) throw invalid('You can only pass up to 8 images.', `${pdp}[images]`);
    optMetadata(prod, 'metadata', pdp); // validated; products are not stored
    const taxBehavior =
      optEnum(pd, 'tax_behavior', ['exclusive', 'inclusive', 'unspecified'] as const, pp) ?? 'unspecified';

    const unitAmount = optInt(pd, 'unit_amount', pp, { min: 0, max: MAX_AMOUNT });
    const unitDecimalRaw = optString(pd, 'unit_amount_decimal', pp);
    if (unitAmount !== undefined && unitDecimalRaw !== undefined) {
      throw invalid(
        'You may only specify one of these parameters: unit_amount, unit_amount_decimal.',
        `${pp}[unit_amount]`,
      );
    }
    let unitDecimal: number;
    if (unitAmount !== undefined) {
      unitDecimal = unitAmount;
    } else if (unitDecimalRaw !== undefined) {
      if (!/^\d+(\.\d{1,12})?$/.test(unitDecimalRaw))
        throw invalid(`Invalid decimal: ${unitDecimalRaw}`, `${pp}[unit_amount_decimal]`);
      unitDecimal = Number(unitDecimalRaw);
    } else {
      throw invalid(
        `You must specify either \`unit_amount\` or \`unit_amount_decimal\` in \`${pp}\`.`,
        `${pp}[unit_amount]`,
        'parameter_missing',
      );
    }
    const quantityRaw = optInt(item, 'quantity', p, { min: 1, max: 999_999 });
    if (quantityRaw === undefined)
      throw invalid(`Quantity is required. Add \`quantity\` to \`${p}\``, `${p}[quantity]`, 'parameter_missing');
    const quantity = quantityRaw;
    const lineAmount = Math.round(unitDecimal * quantity);

    const productInfo: ProductInfo = { id: randomId('prod_', 14), name, description, images };
    products.push(productInfo);
    lineItems.push({
      id: randomId('li_', 24),
      object: 'item',
      amount_discount: 0,
      amount_subtotal: lineAmount,
      amount_tax: 0,
      amount_total: lineAmount,
      currency: cur,
      description: name,
      price: {
        id: randomId('price_', 24),
        object: 'price',
        active: false,
        billing_scheme: 'per_unit',
        created: now,
        currency: cur,
        custom_unit_amount: null,
        livemode: false,
        lookup_key: null,
        metadata: {},
        nickname: null,
        product: productInfo.id,
        recurring: null,
        tax_behavior: taxBehavior,
        tiers_mode: null,
        transform_quantity: null,
        type: 'one_time',
        unit_amount: Number.isInteger(unitDecimal) ? unitDecimal : null,
        unit_amount_decimal: unitDecimalRaw ?? String(unitDecimal),
      },
      quantity,
    });
  });
  return { lineItems, products, currency: currency as string };
}
