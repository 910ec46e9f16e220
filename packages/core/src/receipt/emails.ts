import { formatCents } from "../billing/money";
import { config } from "../config";
import type { Receipt } from "../contract/receipt";
import { emailDate } from "../email/format";
import { type Brand, compose } from "../email/message";
import type { Email } from "../email/port";

/** The receipt emailed when a payment is paid (always sent: it is the member's record of the supply). */
export function receiptEmail(input: { to: string; brand: Brand; receipt: Receipt }): Email {
  const r = input.receipt;
  const rows = [
    { label: `${r.title} number`, value: r.number },
    { label: "Date", value: emailDate(r.date) },
    ...(r.period
      ? [{ label: "Period", value: `${emailDate(r.period.start)} to ${emailDate(r.period.end)}` }]
      : []),
    ...r.lines.map((line) => ({ label: line.label, value: line.formatted_amount })),
    { label: "Total paid", value: r.formatted_total, total: true },
    ...(r.formatted_gst_included ? [{ label: "GST included (15%)", value: r.formatted_gst_included }] : []),
    { label: "Paid by", value: r.payment_method },
  ];
  const supplier = [
    r.supplier.legal_name,
    r.supplier.trading_name !== r.supplier.legal_name ? `trading as ${r.supplier.trading_name}` : "",
    r.supplier.gst_number ? `GST number ${r.supplier.gst_number}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return compose({
    to: input.to,
    subject: `${r.title} ${r.number}: ${r.formatted_total} paid to ${input.brand.name}`,
    brand: input.brand,
    blocks: [
      { p: [`Hi ${r.customer.name},`] },
      { p: ["Thank you: we received ", { strong: formatCents(r.total) }, ` on ${emailDate(r.date)}.`] },
      { rows },
      { p: [`${r.title} from ${supplier}, to ${r.customer.name} (${r.customer.email}).`] },
      {
        button: {
          href: `${config.joinUrl}/membership/receipts/${r.payment_id}`,
          label: "View or print this receipt",
        },
      },
    ],
  });
}
