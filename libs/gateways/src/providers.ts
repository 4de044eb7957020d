/**
 * Every provider the registry holds, known before any module is built: Bull queues and their processors are
 * declared per provider at module definition (one resolution queue each, for its own query budget). Adding a
 * provider adds its folder and its name here; a test checks this list against the registry.
 */
export const PROVIDERS = ['stripe', 'asaas', 'efi'] as const;
