/**
 * Where a payment's status may go. The payment flow engine changes a status only through this table
 * (decisions §3); creation takes its first status from `initialStatus`.
 */
import type { DetailedStatus } from './detailed-status.js';

/** Hosted mode starts at bank selection; custom mode at the follow-up data check (decisions §3). */
export function initialStatus(mode: 'custom' | 'hosted'): DetailedStatus {
  return mode === 'hosted' ? 'PROVIDER_SELECTION_REDIRECT_PENDING' : 'FOLLOWUP_DATA_COLLECTION_REQUIRED_CHECK_PENDING';
}
