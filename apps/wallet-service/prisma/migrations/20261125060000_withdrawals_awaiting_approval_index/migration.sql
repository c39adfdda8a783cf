-- Each payout step looks for another running withdrawal of its wallet on its chain that waits for
-- a customer approval. Over the index of running withdrawals it read every one of them and tested
-- its legs (jsonb containment): under a load of withdrawals, hundreds per wallet and per step, to
-- find almost always none. This index holds only the waiting ones (issue 17).
-- CreateIndex
CREATE INDEX "withdrawals_awaiting_approval_idx" ON "withdrawals"("wallet_id", "destination_chain") WHERE (status = 'processing' AND payout_legs @> '[{"status": "pending_customer_approval"}]'::jsonb);
