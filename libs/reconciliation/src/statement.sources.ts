import { StatementUnsupportedError, type GatewayRegistry, type SentPixLine, type StatementLine, type StatementRequest, type StatementSource } from '@app/gateways';

/** What a provider's statement is matched against: our charges (with their refunds and disputes), or our Pix payouts. */
export type StatementSubject = 'charges' | 'payouts';

/** The statements a provider offers, whichever ports it has. */
export function statementSourcesOf(gateways: GatewayRegistry, provider: string): readonly StatementSource[] {
  return gateways.forAttempt(provider).capabilities.statementSources;
}

/** The providers whose statement can be read (each through the source it offers): the ones a tick reconciles. */
export function readableProviders(gateways: GatewayRegistry): string[] {
  return gateways.attemptProviders().filter((name) => statementSourcesOf(gateways, name).length > 0);
}

/**
 * Where a day's read ends: a margin past the day for a statement of instants (a charge sent just before midnight is
 * found on the other side of it); none for one asked by date, where a margin would be the whole next day.
 */
export function statementReadEnd(gateways: GatewayRegistry, provider: string, dayEnd: Date, marginMs: number): Date {
  return gateways.forAttempt(provider).capabilities.statementByDate ? dayEnd : new Date(dayEnd.getTime() + marginMs);
}

/**
 * Opens the day's statement of a provider as normalised lines, and says what they are matched against. A payout
 * gateway's sent-Pix list becomes balance changes like any other statement, so one staging table serves both.
 * `returnsSince` (payouts only): the windows of earlier days whose sent Pix are read again for their returns alone.
 * A payee's bank sends a Pix back days after it left, and the list is asked by when a Pix was sent, so a return
 * that came after its own day's run would otherwise be read only if that day were run again.
 */
export function openStatement(
  gateways: GatewayRegistry,
  provider: string,
  request: StatementRequest,
  returnsSince: ReadonlyArray<{ start: Date; end: Date }> = [],
  onReturnsUnread: (window: { start: Date; end: Date }, error: unknown) => void = () => {},
): { subject: StatementSubject; lines: AsyncIterable<StatementLine> } {
  const ports = gateways.forAttempt(provider);
  if (!ports.offers('payout')) return { subject: 'charges', lines: ports.port('charge').statement(request) };
  if (!ports.capabilities.statementSources.includes(request.source)) throw new StatementUnsupportedError(provider, request.source);
  const payout = ports.port('payout');
  return {
    subject: 'payouts',
    lines: (async function* () {
      yield* sentPixAsBalanceChanges(payout.sentPixStatement(request.from, request.to, request.signal));
      for (const window of returnsSince) {
        // An earlier day its own run could not read must not fail this day's: its returns wait for a later night.
        try {
          yield* returnsOf(payout.sentPixStatement(window.start, window.end, request.signal));
        } catch (error) {
          if (request.signal?.aborted) throw error;
          onReturnsUnread(window, error);
        }
      }
    })(),
  };
}

/**
 * Only an executed transfer moved money (`payout`, negative: it left the account); one still in progress or not
 * executed is read and staged as `other`, so our success for it shows as missing at the provider. What the payee's
 * bank sent back of a transfer follows it, one `payout_return` line per return.
 */
async function* sentPixAsBalanceChanges(lines: AsyncIterable<SentPixLine>): AsyncIterable<StatementLine> {
  for await (const line of lines) {
    yield {
      lineId: line.endToEndId,
      kind: line.outcome === 'succeeded' ? 'payout' : 'other',
      providerChargeId: line.endToEndId,
      attemptId: line.attemptId,
      chargeId: null,
      amountCents: -line.amountCents,
      currency: line.currency,
      createdAt: line.requestedAt,
      reference: line.transferId,
      providerStatus: line.status,
    };
    yield* returnLinesOf(line);
  }
}

/** An earlier day's sent Pix, read for what came back of them only: their own lines are that day's run's. */
async function* returnsOf(lines: AsyncIterable<SentPixLine>): AsyncIterable<StatementLine> {
  for await (const line of lines) yield* returnLinesOf(line);
}

function* returnLinesOf(line: SentPixLine): Iterable<StatementLine> {
  for (const back of line.returns) {
    yield {
      lineId: back.rtrId,
      kind: 'payout_return',
      providerChargeId: line.endToEndId,
      attemptId: line.attemptId,
      chargeId: null,
      amountCents: back.amountCents,
      currency: line.currency,
      createdAt: back.returnedAt,
      reference: line.transferId,
      providerStatus: 'DEVOLVIDO',
    };
  }
}
