import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';

/** The Stripe API version of the official `stripe` package's types, which the adapter is checked against. */
export const STRIPE_API_VERSION_PINNED = '2026-11-18.endive';

/**
 * The settings of each provider (Stripe, Asaas, Efí Pix): where its API is, its secrets, its budgets and windows.
 * AppConfig extends this, so every setting is still read and validated in one place at boot; they live apart only
 * so that one file holds what a provider needs.
 */
export abstract class ProviderSettings {
  @IsString()
  STRIPE_API_BASE = 'https://api.stripe.com';

  @IsOptional() @IsString()
  STRIPE_SECRET_KEY?: string;

  /**
   * The Stripe endpoint's signing secret. No default: without it `/webhooks/stripe` does not exist (404). The
   * launcher sets the simulator's own secret explicitly when it starts the simulator.
   */
  @IsOptional() @IsString() @Length(8, 255, { message: 'STRIPE_WEBHOOK_SECRET must be 8 to 255 characters' })
  STRIPE_WEBHOOK_SECRET?: string;

  @Type(() => Number) @IsInt() @Min(1)
  STRIPE_WEBHOOK_TOLERANCE_S = 300;

  @Type(() => Number) @IsInt() @Min(1)
  STRIPE_KEY_LIFETIME_MS = 24 * 3600_000;

  /**
   * Sent as `Stripe-Version` on every request: the API version the adapter's types come from (the `stripe`
   * package's ApiVersion; test/stripe-contract.test.ts fails when the two part). Without a pin, behaviour would
   * follow whatever the account's default version is.
   */
  @IsString() @Matches(/^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/, { message: 'STRIPE_API_VERSION must look like 2026-11-18.endive' })
  STRIPE_API_VERSION = STRIPE_API_VERSION_PINNED;

  /** Resends stop this long before the provider may prune the key. */
  @Type(() => Number) @IsInt() @Min(0)
  KEY_LIFETIME_MARGIN_MS = 3600_000;

  @Type(() => Number) @IsInt() @Min(1)
  STRIPE_QUERY_RATE_PER_S = 20;

  /** Asaas base URL without the version (`/v3` is the adapter's); the sandbox is `https://api-sandbox.asaas.com`. */
  @IsString()
  ASAAS_API_BASE = 'https://api.asaas.com';

  @IsOptional() @IsString()
  ASAAS_API_KEY?: string;

  /** The static token Asaas sends in `asaas-access-token`; unset rejects every Asaas webhook. */
  @IsOptional() @IsString() @Length(16, 255, { message: 'ASAAS_WEBHOOK_TOKEN must be 16 to 255 characters' })
  ASAAS_WEBHOOK_TOKEN?: string;

  /** How long Asaas's list by externalReference may miss a payment that exists. */
  @Type(() => Number) @IsInt() @Min(0)
  ASAAS_CONSISTENCY_WINDOW_MS = 120_000;

  @Type(() => Number) @IsInt() @Min(1)
  ASAAS_QUERY_RATE_PER_S = 2;

  /**
   * Whole days after an Asaas boleto's or Pix's due date (in RECONCILIATION_TZ) during which it may still be paid;
   * at the end of them it is cancelled at Asaas and its attempt failed.
   */
  // Three days: a boleto paid at a bank on its due date can take two business days to reach Asaas as RECEIVED.
  @Type(() => Number) @IsInt() @Min(0) @Max(60)
  ASAAS_OVERDUE_GRACE_DAYS = 3;

  /** Efí Pix API (payouts). Sandbox: https://pix-h.api.efipay.com.br. */
  @IsString() @Matches(/^https?:\/\/\S+$/, { message: 'EFI_API_BASE must be an http(s):// URL' })
  EFI_API_BASE = 'https://pix.api.efipay.com.br';

  @IsOptional() @IsString() @Length(1, 200)
  EFI_CLIENT_ID?: string;

  @IsOptional() @IsString() @Length(1, 500)
  EFI_CLIENT_SECRET?: string;

  /** The account certificate for mutual TLS: a .p12 file, or PEM holding certificate and key. */
  @IsOptional() @IsString()
  EFI_CERT_PATH?: string;

  /** Extra CA (PEM) to trust for EFI_API_BASE instead of the system roots: a staging or test server only. */
  @IsOptional() @IsString()
  EFI_CA_PATH?: string;

  /** The payer's own Pix key (`pagador.chave`): where payouts leave from. A Pix key is at most 77 characters. */
  @IsOptional() @IsString() @Length(1, 77)
  EFI_PIX_KEY?: string;

  /**
   * How sent-Pix webhooks are authenticated. Efí presents a client certificate (mTLS): EFI_WEBHOOK_CA_PATH is the
   * CA (PEM) that certificate must chain to. Behind a proxy that terminates TLS, register the webhook URL with a
   * secret `hmac` query parameter instead and set it here as EFI_WEBHOOK_HMAC (compared in constant time).
   */
  @IsOptional() @IsString()
  EFI_WEBHOOK_CA_PATH?: string;

  @IsOptional() @IsString() @Length(32, 500, { message: 'EFI_WEBHOOK_HMAC must be at least 32 characters' })
  EFI_WEBHOOK_HMAC?: string;

  /**
   * Serve Efí's webhook over HTTPS with mutual TLS on this port of the api itself (only `/webhooks/efi...` there):
   * a client without a certificate chaining to EFI_WEBHOOK_CA_PATH cannot even connect. Needs the server's own
   * certificate and key (EFI_WEBHOOK_TLS_CERT_PATH, EFI_WEBHOOK_TLS_KEY_PATH). Unset: no such listener.
   */
  @IsOptional() @Type(() => Number) @IsInt() @Min(0)
  EFI_WEBHOOK_TLS_PORT?: number;

  @IsOptional() @IsString()
  EFI_WEBHOOK_TLS_CERT_PATH?: string;

  @IsOptional() @IsString()
  EFI_WEBHOOK_TLS_KEY_PATH?: string;
}
