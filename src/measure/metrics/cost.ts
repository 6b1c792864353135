/** Cost: model tokens and money per harvested item, when the harvest recorded them. */
import type { MeasureData } from '../data.js';
import { point, type Metric, type Trend } from '../metric.js';
import { round } from '../stable-json.js';

const NO_TREND: Trend = { kind: 'window', d7: point(null, null), d30: point(null, null) };

export function cost(data: MeasureData): Metric<undefined> {
  const items = data.emitted.length;
  const { sessions, tokens, usd } = data.cost;
  const recorded = sessions > 0;
  // divided here, not with ratio(): money per item needs more than four decimals
  const perItem = tokens === undefined || items === 0 ? null : tokens / items;
  const usdPerItem = usd === undefined || items === 0 ? null : usd / items;
  return {
    title: 'Cost',
    definition:
      'Model tokens and money spent by the harvest per item it wrote: the `tokens` and `cost_usd` fields of the ledger\'s session records, over the ids in its `emitted` list. The default extractor uses no model and records none.',
    value: perItem === null ? null : round(perItem, 1),
    display: !recorded
      ? 'not recorded (the harvest recorded no tokens or cost)'
      : `${perItem === null ? 'n/a' : round(perItem, 1)} tokens and ${usdPerItem === null ? 'n/a' : `$${usdPerItem.toFixed(4)}`} per item`,
    // the ledger keeps no dates for its costs, so there is nothing to trend
    trend: NO_TREND,
    counts: {
      harvested_items: items,
      ledger_sessions_with_cost: sessions,
      tokens: tokens ?? null,
      usd: usd === undefined ? null : round(usd, 4),
      tokens_per_item: perItem === null ? null : round(perItem, 1),
      usd_per_item: usdPerItem === null ? null : round(usdPerItem, 6),
    },
    details: undefined,
  };
}
