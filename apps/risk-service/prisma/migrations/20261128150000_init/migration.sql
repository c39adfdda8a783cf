-- risk-service's tables (issue 39), with the outbox as the other services have it after
-- 20261127023918_outbox_relay_position.
-- (No semicolons in comments: Prisma's engine splits a migration's statements on them.)

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "org_id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "trace_context" TEXT,
    "txid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
    "seq" BIGSERIAL NOT NULL,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_relay" (
    "name" TEXT NOT NULL,
    "last_txid" xid8 NOT NULL DEFAULT '0'::xid8,
    "last_seq" BIGINT NOT NULL DEFAULT 0,
    "holder" UUID,
    "held_until" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_relay_pkey" PRIMARY KEY ("name")
);

INSERT INTO "outbox_relay" ("name", "last_txid", "last_seq") VALUES ('relay', '3', 0);

-- CreateTable
CREATE TABLE "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateTable
CREATE TABLE "metric_observations" (
    "id" UUID NOT NULL,
    "yield_source_id" TEXT NOT NULL,
    "org_id" TEXT,
    "apy_bps" DOUBLE PRECISION,
    "tvl_usd" DOUBLE PRECISION,
    "available_withdrawal_liquidity_usd" DOUBLE PRECISION,
    "protocol" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "recorded_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "metric_observations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "risk_rules" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "wallet_id" UUID NOT NULL,
    "yield_source_id" TEXT NOT NULL,
    "name" TEXT,
    "metric" TEXT NOT NULL,
    "rule_kind" TEXT NOT NULL,
    "comparator" TEXT NOT NULL,
    "threshold_value" DOUBLE PRECISION NOT NULL,
    "window_seconds" INTEGER,
    "severity" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "risk_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "risk_alerts" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "wallet_id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "yield_source_id" TEXT NOT NULL,
    "observation_id" UUID NOT NULL,
    "metric" TEXT NOT NULL,
    "rule_kind" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "threshold_value" DOUBLE PRECISION NOT NULL,
    "observed_value" DOUBLE PRECISION NOT NULL,
    "baseline_value" DOUBLE PRECISION,
    "observed_change_bps" DOUBLE PRECISION,
    "window_seconds" INTEGER,
    "explanation" JSONB NOT NULL,
    "triggered_at" TIMESTAMPTZ(3) NOT NULL,
    "resolved_at" TIMESTAMPTZ(3),
    "resolution_source" TEXT,
    "resolution_note" TEXT,

    CONSTRAINT "risk_alerts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "risk_actions" (
    "id" UUID NOT NULL,
    "org_id" TEXT NOT NULL,
    "wallet_id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "alert_id" UUID NOT NULL,
    "yield_source_id" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "approval_required" BOOLEAN NOT NULL,
    "rebalance_id" UUID,
    "execution_error" JSONB,
    "explanation" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "resolved_at" TIMESTAMPTZ(3),
    "executed_at" TIMESTAMPTZ(3),

    CONSTRAINT "risk_actions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "outbox_events_txid_seq_idx" ON "outbox_events"("txid", "seq");

-- CreateIndex
CREATE INDEX "metric_observations_yield_source_id_org_id_recorded_at_idx" ON "metric_observations"("yield_source_id", "org_id", "recorded_at" DESC);

-- CreateIndex
CREATE INDEX "risk_rules_yield_source_id_status_org_id_idx" ON "risk_rules"("yield_source_id", "status", "org_id");

-- CreateIndex
CREATE INDEX "risk_rules_org_id_created_at_id_idx" ON "risk_rules"("org_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "risk_alerts_org_id_triggered_at_id_idx" ON "risk_alerts"("org_id", "triggered_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "risk_actions_alert_id_idx" ON "risk_actions"("alert_id");

-- CreateIndex
CREATE INDEX "risk_actions_org_id_created_at_id_idx" ON "risk_actions"("org_id", "created_at" DESC, "id" DESC);

-- One ongoing alert per rule: a second breach while one is open can never open another.
CREATE UNIQUE INDEX "risk_alerts_one_ongoing_per_rule" ON "risk_alerts"("rule_id") WHERE status = 'ongoing';

-- The ongoing alerts of a source, read with its rules at each evaluation.
CREATE INDEX "risk_alerts_ongoing_by_source" ON "risk_alerts"("yield_source_id") WHERE status = 'ongoing';
