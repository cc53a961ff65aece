import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError, UnsupportedMediaTypeError } from '../domain/errors.ts';

/**
 * Content-Security-Policy: exactly what the product loads. Everything is served from this
 * origin (self-hosted font, bundled scripts, local images). With PayPal configured (not its
 * simulator, which is served from this origin), PayPal's hosts are added for its JS SDK, its
 * button frames and its calls: paymentProviderSources().
 */
export const PAYPAL_SOURCES: readonly string[] = ['https://*.paypal.com', 'https://*.paypalobjects.com'];

/** The CSP sources of the payment provider: PayPal's hosts with real PayPal, none with the simulator. */
export function paymentProviderSources(paypal: { kind: 'paypal' | 'simulator' }): string[] {
  return paypal.kind === 'paypal' ? [...PAYPAL_SOURCES] : [];
}

export function helmetOptions(secure: boolean, paymentSources: readonly string[] = []): FastifyHelmetOptions {
  return {
    // A fresh nonce per response: the page hands it to the UI library that locks scrolling
    // behind a dialog, whose injected <style> element needs it (see web-app.ts).
    enableCSPNonces: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'", ...paymentSources],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", ...paymentSources],
        // React and Radix position things (slider handle, popovers) with style attributes; a style
        // attribute cannot run script, and prerendered pages carry them in their HTML.
        styleSrcAttr: ["'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...paymentSources],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...paymentSources],
        frameSrc: paymentSources.length ? [...paymentSources] : ["'none'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'"],
        ...(secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // PayPal's approval opens a popup; same-origin would cut it off from this page.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // HSTS only means something over HTTPS; on http://localhost it would only confuse browsers.
    strictTransportSecurity: secure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    // Other sites get the origin only, never a path; PayPal's SDK identifies the merchant's site
    // by it, which helmet's default no-referrer would hide.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site protection for every state-changing request, whatever its path: it must come from
 * this origin, and a body, when present, must be JSON. Deciding by the raw URL let
 * `/%61pi/...` through (the router decodes it to `/api/...`), so nothing is decided by the path:
 * routes signed or protected otherwise (PayPal's webhook, the development stand-ins' forms and
 * server-to-server calls) opt out with `config: { crossSiteExempt: true }`.
 */
export function registerCrossSiteProtection(app: FastifyInstance, publicOrigin: string): void {
  app.addHook('onRequest', async (req: FastifyRequest) => {
    if (SAFE_METHODS.has(req.method) || req.routeOptions.config?.crossSiteExempt) return;
    const origin = req.headers.origin;
    const fetchSite = req.headers['sec-fetch-site'];
    const sameOrigin = origin ? origin === publicOrigin : fetchSite === 'same-origin';
    if (!sameOrigin || (fetchSite !== undefined && fetchSite !== 'same-origin')) {
      req.log.warn({ event: 'security.cross_site_refused', origin, fetchSite, url: req.url }, 'cross-site request refused');
      throw new ForbiddenError('Cross-site request refused');
    }
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (hasBody && contentType !== 'application/json') {
      throw new UnsupportedMediaTypeError('Request body must be application/json');
    }
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    crossSiteExempt?: boolean;
    /** The message of a 413 for a body over this route's limit (the upload's 'File size must be...'). */
    bodyTooLargeMessage?: string;
  }
}
