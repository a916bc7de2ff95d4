/**
 * The payer's IP address as the API and the banks take it (`psuIpAddress`: IPv4 in four octets, or IPv6 in eight
 * groups without `::`), from the address a request came from. An IPv4 address seen through an IPv6 socket
 * (`::ffff:192.0.2.1`) is the IPv4 address.
 */
import { isIPv4, isIPv6 } from 'node:net';

export function psuIpAddressOf(address: string): string | undefined {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return undefined;
  // The URL parser writes IPv6 canonically (RFC 5952), an embedded IPv4 tail as two groups; only `::` is left to open.
  const canonical = new URL(`http://[${address.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  const groups = [...left, ...zeros, ...right];
  return groups.length === 8 ? groups.join(':') : undefined;
}
