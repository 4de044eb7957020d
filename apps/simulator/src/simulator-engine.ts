import { AsaasEngine } from './asaas/asaas-engine.js';
import { FaultPlanner } from './fault-plan.js';
import { HangTracker } from './hang-tracker.js';
import { applyConfigPatch, type SimulatorConfig } from './simulator-config.js';
import { SimulatorStats } from './simulator-stats.js';
import { StripeEngine } from './stripe/stripe-engine.js';

/**
 * The simulated providers behind one API port, Stripe and Asaas, and what they share: one fault plan, hang
 * tracker, set of counters and configuration, so one set of knobs drives both. Knows nothing about HTTP.
 */
export class SimulatorEngine {
  readonly faults = new FaultPlanner();
  readonly stats = new SimulatorStats();
  readonly hangs = new HangTracker();
  readonly stripe: StripeEngine;
  readonly asaas: AsaasEngine;
  private current: SimulatorConfig;

  constructor(private readonly initialConfig: SimulatorConfig) {
    this.current = initialConfig;
    this.stripe = new StripeEngine(this.faults, this.stats, this.hangs, () => this.current);
    this.asaas = new AsaasEngine(this.faults, this.stats, this.hangs, () => this.current);
  }

  get config(): SimulatorConfig {
    return this.current;
  }

  configure(patch: unknown): SimulatorConfig {
    this.current = applyConfigPatch(this.current, patch);
    return this.current;
  }

  /** Forgets everything and returns to the configuration the simulator was started with. */
  reset(): void {
    this.hangs.releaseAll();
    this.stripe.reset();
    this.faults.clear();
    this.stats.reset();
    this.asaas.reset();
    this.current = this.initialConfig;
  }

  close(): void {
    this.hangs.releaseAll();
    this.stripe.close();
    this.asaas.close();
  }
}
