-- The statements risk-blocks.repository.ts runs, as final SQL text with their $n placeholders.
-- Written by src/queries/queries.spec.ts from the module's own functions; do not edit by hand:
-- UPDATE_SQL=1 rewrites it (see the service's README).

-- blockedSources(db, walletId)
SELECT DISTINCT yield_source_id AS "yieldSourceId" FROM risk_allocation_blocks
WHERE wallet_id = $1::uuid AND executed_at IS NOT NULL AND lifted_at IS NULL;

-- lockRiskAlert(tx, alertId)
SELECT pg_advisory_xact_lock(hashtextextended('risk-alert:' || $1::text, 0)) IS NULL AS "locked";

-- recordBlockExecuted(tx, action, now)
WITH w0 AS (INSERT INTO risk_allocation_blocks (action_id, org_id, wallet_id, yield_source_id, risk_alert_id, executed_at, lifted_at, lifted_by, updated_at)
SELECT $2::uuid, $3::text, $4::uuid, $5::text,
       alert.id, $1::timestamptz, resolved.resolved_at, CASE WHEN resolved.alert_id IS NULL THEN NULL ELSE 'alert_resolved' END, $1::timestamptz
  FROM (SELECT $6::uuid AS id) alert LEFT JOIN risk_resolved_alerts resolved ON resolved.alert_id = alert.id
ON CONFLICT (action_id) DO UPDATE SET executed_at = COALESCE(risk_allocation_blocks.executed_at, EXCLUDED.executed_at),
       lifted_at = COALESCE(risk_allocation_blocks.lifted_at, EXCLUDED.lifted_at),
       lifted_by = COALESCE(risk_allocation_blocks.lifted_by, EXCLUDED.lifted_by), updated_at = EXCLUDED.updated_at) SELECT 1;

-- recordBlockRejected(tx, action, now)
WITH w0 AS (INSERT INTO risk_allocation_blocks (action_id, org_id, wallet_id, yield_source_id, risk_alert_id, executed_at, lifted_at, lifted_by, updated_at)
VALUES ($2::uuid, $3::text, $4::uuid, $5::text,
        $6::uuid, NULL, $1::timestamptz, 'action_rejected', $1::timestamptz)
ON CONFLICT (action_id) DO UPDATE SET lifted_at = COALESCE(risk_allocation_blocks.lifted_at, EXCLUDED.lifted_at),
       lifted_by = COALESCE(risk_allocation_blocks.lifted_by, EXCLUDED.lifted_by), updated_at = EXCLUDED.updated_at) SELECT 1;

-- recordAlertResolved(tx, {alertId, orgId}, now)
WITH w0 AS (INSERT INTO risk_resolved_alerts (alert_id, org_id, resolved_at) VALUES ($2::uuid, $3::text, $1::timestamptz) ON CONFLICT DO NOTHING), w1 AS (UPDATE risk_allocation_blocks SET lifted_at = $1::timestamptz, lifted_by = 'alert_resolved', updated_at = $1::timestamptz
WHERE risk_alert_id = $2::uuid AND lifted_at IS NULL) SELECT 1;
