import type { Point } from './api.js';

const LAT_LNG = /^\s*(-?\d+(?:\.\d+)?)\s*[,\s]\s*(-?\d+(?:\.\d+)?)\s*$/;

/** "39.7392,-104.9903" (or with a space) as a point; anything else (an address, a ZIP) is undefined. */
export function parseLatLng(text: string): Point | undefined {
  const m = LAT_LNG.exec(text);
  if (m === null) return undefined;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  return { lat, lng };
}

/** A point as the box shows it and the API reads it: four decimals, about 10 m. */
export function formatPoint(p: Point): string {
  return `${p.lat.toFixed(4)},${p.lng.toFixed(4)}`;
}
