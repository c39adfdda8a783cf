import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  RISK_INJECTION_DEFAULT_SECONDS,
  RISK_METRICS,
  RISK_METRICS_MAX_PER_SOURCE,
  type RequestContext,
  type RequestOf,
  type RiskMetricsListDto,
  type RiskMetricsObservationDto,
  type SUBJECTS,
} from '@service/contracts';
import { ServiceError } from '@service/errors';
import { OutboxRelayService, SERVICE_CONFIG, SERVICE_LOGGER } from '@service/service-runtime';
import type { Logger } from 'pino';
import type { RiskConfig } from '../../config.js';
import { type RiskSource, sourceOf, sourcesOf } from '../domain/catalogue.js';
import type { MetricFigures } from '../domain/rules.js';
import { simulatedFigures } from '../domain/simulation.js';
import { figuresOf, observedEventOf, toObservationDto } from '../domain/views.js';
import { type NewObservation, RiskRepository } from '../repositories/risk.repository.js';
import { EngineService } from '../risk/engine.service.js';
import { Erc4626Reader } from './erc4626.reader.js';

type Input<S extends keyof typeof SUBJECTS.risk> = RequestOf<(typeof SUBJECTS.risk)[S]>;

/** A provider of one source's readings. */
interface Provider {
  readonly name: 'simulated' | 'onchain';
  read(at: Date): Promise<MetricFigures>;
}

/** Observations: the providers' readings on a cadence, sandbox injections, and the metrics list. */
@Injectable()
export class MarketDataService {
  private readonly providers = new Map<string, Provider>();

  constructor(
    private readonly repository: RiskRepository,
    private readonly engine: EngineService,
    private readonly relay: OutboxRelayService,
    @Inject(SERVICE_CONFIG) private readonly config: RiskConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    for (const source of sourcesOf(config.SERVICE_ENV)) {
      const vault = config.RISK_ONCHAIN_VAULTS.get(source.id);
      if (vault) {
        if (config.RISK_CHAIN_RPC_URL === '') throw new Error('RISK_CHAIN_RPC_URL is required when RISK_ONCHAIN_VAULTS names a source');
        const reader = new Erc4626Reader(config.RISK_CHAIN_RPC_URL, vault);
        this.providers.set(source.id, { name: 'onchain', read: (at) => reader.read(at) });
      } else if (config.RISK_DEFAULT_PROVIDER === 'simulated') {
        this.providers.set(source.id, {
          name: 'simulated',
          read: (at) => Promise.resolve(simulatedFigures(config.RISK_SIMULATION_SEED, source, at)),
        });
      }
    }
  }

  /** One reading of every source that has a provider; a source read less than `minAgeMs` ago is skipped (another replica read it). */
  async readAll(at = new Date(), minAgeMs = 0): Promise<number> {
    let recorded = 0;
    for (const source of sourcesOf(this.config.SERVICE_ENV)) {
      const provider = this.providers.get(source.id);
      if (!provider) continue;
      try {
        const last = minAgeMs > 0 ? await this.repository.lastReadingAt(source.id) : null;
        if (last && at.getTime() - last.getTime() < minAgeMs) continue;
        if (await this.record(source, provider.name, await provider.read(at), at, minAgeMs)) recorded += 1;
      } catch (error) {
        this.logger.warn({ err: error, yieldSourceId: source.id }, 'risk: reading a yield source failed; the next cadence retries');
      }
    }
    return recorded;
  }

  /**
   * Records a provider's reading and evaluates the rules on it, in one transaction; null when
   * another replica recorded one less than `minAgeMs` before (checked under the source's lock).
   */
  async record(
    source: RiskSource,
    provider: string,
    figures: MetricFigures,
    at: Date,
    minAgeMs = 0,
  ): Promise<RiskMetricsObservationDto | null> {
    const observation = await this.repository.inSourceTransaction([source.id], async (tx) => {
      if (minAgeMs > 0) {
        const last = await this.repository.latestReading(tx, source.id, new Date(at.getTime() + minAgeMs));
        if (last && Math.abs(at.getTime() - last.recordedAt.getTime()) < minAgeMs) return null;
      }
      const reading: NewObservation = {
        id: randomUUID(),
        yieldSourceId: source.id,
        orgId: null,
        apyBps: figures.apy_bps,
        tvlUsd: figures.tvl_usd,
        availableWithdrawalLiquidityUsd: figures.available_withdrawal_liquidity_usd,
        protocol: source.protocol,
        source: provider,
        recordedAt: at,
        expiresAt: null,
      };
      const row = await this.repository.insertObservation(tx, reading, observedEventOf(reading));
      await this.engine.onObservation(tx, row);
      return row;
    });
    if (!observation) return null;
    this.relay.wake();
    return toObservationDto(observation, null);
  }

  /**
   * `POST /v2/sandbox/risk/metrics`: an observation for the caller's organization only, holding
   * until its next injection or `expiresInSeconds`; metrics it does not name keep the figures the
   * organization saw. Evaluates the organization's rules on it at once.
   */
  async inject(ctx: RequestContext, input: Input<'sandboxMetricsInject'>): Promise<RiskMetricsObservationDto> {
    if (this.config.SERVICE_ENV !== 'sandbox')
      throw new ServiceError('operation_not_supported', 'Risk metric injection exists in the sandbox only.');
    const source = sourceOf(this.config.SERVICE_ENV, input.yieldSourceId);
    if (!source) throw new ServiceError('yield_source_not_found', `Yield source ${input.yieldSourceId} is not in the catalogue.`);
    const given = Object.entries(input.metrics ?? {}).filter(
      ([metric, value]) => (RISK_METRICS as readonly string[]).includes(metric) && typeof value === 'number',
    );
    if (given.length === 0) throw new ServiceError('validation_error', `metrics must name at least one of ${RISK_METRICS.join(', ')}.`);
    const at = new Date();
    const expiresAt = new Date(at.getTime() + (input.expiresInSeconds ?? RISK_INJECTION_DEFAULT_SECONDS) * 1000);
    const observation = await this.repository.inSourceTransaction([source.id], async (tx) => {
      const seen = await this.repository.visible(tx, ctx.orgId, source.id, at);
      const figures: MetricFigures = {
        ...(seen ? figuresOf(seen) : { apy_bps: null, tvl_usd: null, available_withdrawal_liquidity_usd: null }),
        ...Object.fromEntries(given),
      };
      const injection: NewObservation = {
        id: randomUUID(),
        yieldSourceId: source.id,
        orgId: ctx.orgId,
        apyBps: figures.apy_bps,
        tvlUsd: figures.tvl_usd,
        availableWithdrawalLiquidityUsd: figures.available_withdrawal_liquidity_usd,
        protocol: source.protocol,
        source: 'sandbox_injection',
        recordedAt: at,
        expiresAt,
      };
      const row = await this.repository.insertObservation(tx, injection, observedEventOf(injection));
      await this.engine.onObservation(tx, row);
      return row;
    });
    this.relay.wake();
    return toObservationDto(observation, null);
  }

  /** `GET /v2/wallets/risk/metrics`: per (wallet, source) pair, the latest observation or a series, as the organization sees them. */
  async list(ctx: RequestContext, input: Input<'metricsList'>): Promise<RiskMetricsListDto> {
    const sources = input.yieldSourceIds
      ? input.yieldSourceIds.map((id) => {
          const source = sourceOf(this.config.SERVICE_ENV, id);
          if (!source) throw new ServiceError('yield_source_not_found', `Yield source ${id} is not in the catalogue.`);
          return source;
        })
      : sourcesOf(this.config.SERVICE_ENV);
    const startAt = input.startAt ? new Date(input.startAt) : undefined;
    const endAt = input.endAt ? new Date(input.endAt) : undefined;
    if (startAt && endAt && startAt > endAt) throw new ServiceError('validation_error', 'startAt must not be after endAt.');
    const latestOnly = input.latestOnly ?? true;
    const limit = input.limitPerYieldSource ?? RISK_METRICS_MAX_PER_SOURCE;
    const db = this.repository.prisma;
    const now = new Date();
    const observed = await Promise.all(
      sources.map(async (source) => {
        if (latestOnly && !startAt && !endAt) {
          const latest = await this.repository.visible(db, ctx.orgId, source.id, now);
          return { source, rows: latest ? [latest] : [] };
        }
        const rows = await this.repository.series(db, ctx.orgId, source.id, { startAt, endAt }, latestOnly ? 1 : limit);
        return { source, rows };
      }),
    );
    const wallets: (string | null)[] = input.portfolioWalletIds && input.portfolioWalletIds.length > 0 ? input.portfolioWalletIds : [null];
    return {
      data: wallets.flatMap((walletId) =>
        observed.map(({ source, rows }) => ({
          portfolioWalletId: walletId,
          yieldSourceId: source.id,
          observations: rows.map((row) => toObservationDto(row, walletId, input.metrics)),
        })),
      ),
    };
  }
}
