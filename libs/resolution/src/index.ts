export { ResolutionModule } from './resolution.module.js';
export { UnknownAttemptResolver } from './unknown-attempt.resolver.js';
export { OpenAttemptSweeper, type SweepReport } from './open-attempt.sweeper.js';
export * from './rules/resolution-decision.js';
export * from './rules/resolution-schedule.js';
