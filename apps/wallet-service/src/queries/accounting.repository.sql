-- The statements accounting.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- addAccountingEvents(writes, {a deposit, then 1 USD from cash into JAAA: three events}), alone
WITH w0 AS (INSERT INTO accounting_events (id, org_id, wallet_id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from,
  position_amount, position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
  cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized)
SELECT u.id, $1::text, $2::uuid, u.type, u.position_id, u.position_kind, u.amount, u.cost,
       u.realized, u.rate_bps, u.accrued_from, u.position_amount, u.position_accrued_at, u.open_cost, u.reference_type, u.reference_id,
       u.chain, u.token, u.tx_hash, u.occurred_at, u.cum_deposits, u.cum_payouts, u.cum_fees, u.cum_bought, u.cum_redeemed, u.cum_realized
  FROM unnest($3::uuid[], $4::text[],
              $5::text[], $6::text[],
              $7::bigint[], $8::bigint[],
              $9::bigint[], $10::int[],
              $11::timestamptz[],
              $12::bigint[],
              $13::timestamptz[],
              $14::bigint[], $15::text[],
              $16::text[], $17::text[],
              $18::text[],
              $19::text[],
              $20::timestamptz[],
              $21::bigint[], $22::bigint[],
              $23::bigint[], $24::bigint[],
              $25::bigint[], $26::bigint[])
       WITH ORDINALITY AS u(id, type, position_id, position_kind, amount, cost, realized, rate_bps, accrued_from, position_amount,
                            position_accrued_at, open_cost, reference_type, reference_id, chain, token, tx_hash, occurred_at,
                            cum_deposits, cum_payouts, cum_fees, cum_bought, cum_redeemed, cum_realized, ordinal)
 ORDER BY u.ordinal) SELECT 1;

-- readPeriod(sql, {orgId, walletId, start, end}): one wallet's boundaries, flows and positions in one statement
SELECT EXISTS (SELECT w.id FROM wallets w WHERE w.org_id = $1::text AND ($2::uuid IS NULL OR w.id = $2::uuid)) AS found,
(SELECT coalesce(json_agg(json_build_array(p.wallet_id::text, p.position_id, p.kind, e.position_amount::text,
      floor(extract(epoch FROM e.position_accrued_at) * 1000)::float8, e.open_cost::text,
      json_build_array(e.cum_deposits::text, e.cum_payouts::text, e.cum_fees::text, e.cum_bought::text,
                       e.cum_redeemed::text, e.cum_realized::text))), '[]'::json)
 FROM positions p
 CROSS JOIN LATERAL (SELECT position_amount, position_accrued_at, open_cost, cum_deposits, cum_payouts, cum_fees, cum_bought,
                            cum_redeemed, cum_realized
                       FROM accounting_events e
                      WHERE e.wallet_id = p.wallet_id AND e.position_id = p.position_id AND e.occurred_at < $3::timestamptz
                      ORDER BY e.occurred_at DESC, e.seq DESC LIMIT 1) e
WHERE p.wallet_id IN (SELECT w.id FROM wallets w WHERE w.org_id = $1::text AND ($2::uuid IS NULL OR w.id = $2::uuid))) AS start,
(SELECT coalesce(json_agg(json_build_array(p.wallet_id::text, p.position_id, p.kind, e.position_amount::text,
      floor(extract(epoch FROM e.position_accrued_at) * 1000)::float8, e.open_cost::text,
      json_build_array(e.cum_deposits::text, e.cum_payouts::text, e.cum_fees::text, e.cum_bought::text,
                       e.cum_redeemed::text, e.cum_realized::text))), '[]'::json)
 FROM positions p
 CROSS JOIN LATERAL (SELECT position_amount, position_accrued_at, open_cost, cum_deposits, cum_payouts, cum_fees, cum_bought,
                            cum_redeemed, cum_realized
                       FROM accounting_events e
                      WHERE e.wallet_id = p.wallet_id AND e.position_id = p.position_id AND e.occurred_at < $4::timestamptz
                      ORDER BY e.occurred_at DESC, e.seq DESC LIMIT 1) e
WHERE p.wallet_id IN (SELECT w.id FROM wallets w WHERE w.org_id = $1::text AND ($2::uuid IS NULL OR w.id = $2::uuid))) AS "end",
(SELECT coalesce(json_agg(json_build_array(p.wallet_id::text, p.position_id, p.kind, p.amount::text,
        floor(extract(epoch FROM p.accrued_at) * 1000)::float8, e.position_amount::text,
        floor(extract(epoch FROM e.position_accrued_at) * 1000)::float8, e.open_cost::text)), '[]'::json)
   FROM positions p
   LEFT JOIN LATERAL (SELECT position_amount, position_accrued_at, open_cost FROM accounting_events e
                       WHERE e.wallet_id = p.wallet_id AND e.position_id = p.position_id
                       ORDER BY e.seq DESC LIMIT 1) e ON true
  WHERE p.wallet_id IN (SELECT w.id FROM wallets w WHERE w.org_id = $1::text AND ($2::uuid IS NULL OR w.id = $2::uuid))) AS current;

-- listAccountingEvents(sql, {organization, a period, deposits, after a cursor, limit 20})
SELECT EXISTS (SELECT w.id FROM wallets w WHERE w.org_id = $1::text AND ($2::uuid IS NULL OR w.id = $2::uuid)) AS found, e.seq::text AS seq, e.id::text AS id, e.wallet_id::text AS "walletId", w.label, e.type,
      e.position_id AS "positionId", e.position_kind AS "positionKind", e.amount::text AS amount, e.cost::text AS cost,
      e.realized::text AS realized, e.rate_bps AS "rateBps", e.reference_type AS "referenceType", e.reference_id AS "referenceId",
      e.chain, e.token, e.tx_hash AS "txHash", e.occurred_at AS "occurredAt", e.created_at AS "createdAt"
 FROM (SELECT 1) one
 LEFT JOIN accounting_events e ON e.org_id = $1::text AND e.wallet_id IN (SELECT w.id FROM wallets w WHERE w.org_id = $1::text AND ($2::uuid IS NULL OR w.id = $2::uuid))
      AND ($3::timestamptz IS NULL OR e.occurred_at >= $3::timestamptz) AND ($4::timestamptz IS NULL OR e.occurred_at < $4::timestamptz)
      AND ($5::text[] IS NULL OR e.type = ANY($5::text[])) AND ($6::bigint IS NULL OR e.seq < $6::bigint)
 LEFT JOIN wallets w ON w.id = e.wallet_id
ORDER BY e.seq DESC NULLS LAST
LIMIT $7::int;
