import path from "node:path";
import { Duration } from "aws-cdk-lib";
import { Certificate } from "aws-cdk-lib/aws-certificatemanager";
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Function as CfFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  type HeadersReferrerPolicy,
  OriginProtocolPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from "aws-cdk-lib/aws-cloudfront";
import { HttpOrigin } from "aws-cdk-lib/aws-cloudfront-origins";
import type { Construct } from "constructs";
import {
  type Function as SstFunction,
  type StackContext,
  StaticSite,
  type StaticSiteProps,
  use,
} from "sst/constructs";

import {
  API_HEADERS,
  ORIGIN_SECRET_HEADER,
  SHELL_PAGES,
  type Site,
  STRICT_TRANSPORT_SECURITY,
  siteHeaders,
} from "../packages/core/src/security/headers";
import type { siteUrlEnv } from "../packages/functions/src/aws/secrets";
import { API } from "./api";
import { Jobs } from "./jobs";
import { deploySettings } from "./settings";
import { Storage } from "./storage";

/**
 * Single-page-app routing without CloudFront error pages. Error responses apply to every behaviour of a
 * distribution, so a 403/404 mapped to index.html would also swallow the API's JSON 403/404: instead a
 * viewer-request function sends every path that is not a static file to the app. A site's index.html
 * paints one page before its JavaScript runs (the join site's register page, the staff sign-in page):
 * that page's paths (SHELL_PAGES) get /index.html, every other path /app.html, the same document
 * without that prerendered shell (packages/web/src/build/shell-pages.ts).
 */
export const spaRewrite = (site: Site) => `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var shellPages = ${JSON.stringify(SHELL_PAGES[site])};
  if (uri.indexOf("/.well-known/") === 0) return request;
  if (!/\\.(html|js|mjs|css|map|json|txt|xml|webmanifest|ico|png|jpe?g|gif|svg|webp|avif|woff2?|ttf|otf)$/i.test(uri)) {
    request.uri = shellPages.indexOf(uri) >= 0 ? "/index.html" : "/app.html";
  }
  return request;
}`;

const hsts = {
  accessControlMaxAge: Duration.seconds(STRICT_TRANSPORT_SECURITY.maxAgeSeconds),
  includeSubdomains: STRICT_TRANSPORT_SECURITY.includeSubdomains,
  override: true,
};

/**
 * A site's response headers, from the values the local server sends too
 * (packages/core/src/security/headers.ts): CSP with frame-ancestors 'none', nosniff,
 * X-Frame-Options DENY, Referrer-Policy no-referrer, and HSTS.
 */
function sitePolicy(scope: Construct, id: string, site: Site) {
  const headers = siteHeaders(site);
  return new ResponseHeadersPolicy(scope, id, {
    comment: `Security headers of the ${site} site`,
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: headers["Content-Security-Policy"], override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption[headers["X-Frame-Options"] as "DENY"], override: true },
      referrerPolicy: {
        referrerPolicy: headers["Referrer-Policy"] as HeadersReferrerPolicy,
        override: true,
      },
      strictTransportSecurity: hsts,
    },
  });
}

/**
 * The API's headers at the edge as well (the API sets them itself too): nosniff and no-referrer
 * always; Cache-Control no-store unless the API set its own (an immutable public logo).
 */
function apiPolicy(scope: Construct) {
  return new ResponseHeadersPolicy(scope, "ApiHeaders", {
    comment: "Security headers of /api/*",
    securityHeadersBehavior: {
      contentTypeOptions: { override: true },
      referrerPolicy: {
        referrerPolicy: API_HEADERS["Referrer-Policy"] as HeadersReferrerPolicy,
        override: true,
      },
      strictTransportSecurity: hsts,
    },
    customHeadersBehavior: {
      customHeaders: [{ header: "Cache-Control", value: API_HEADERS["Cache-Control"], override: false }],
    },
  });
}

/**
 * The two React apps, each on its own CloudFront distribution: the Vite build from S3 by default, and
 * `/api/*` passed through uncached to the HTTP API so the app calls its API on its own origin.
 *
 * `WEB_PREBUILT_DIR`, if set, holds already-built sites as `<dir>/web-staff` and `<dir>/web-join`
 * (a CI artifact, or the test fixture); otherwise each app is built with `npm run build` at deploy.
 */
export function Web({ stack }: StackContext) {
  const { api, handler, originSecret } = use(API);
  const { functions: jobFunctions, charges, outboxStream } = use(Jobs);
  const settings = deploySettings();
  const prebuilt = process.env.WEB_PREBUILT_DIR;

  const apiBehavior: BehaviorOptions = {
    origin: new HttpOrigin(`${api.cdk.httpApi.apiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      readTimeout: Duration.seconds(30),
      // Proves to the API that the request came through CloudFront (see infra/api.ts).
      customHeaders: { [ORIGIN_SECRET_HEADER]: originSecret.secretValue.unsafeUnwrap() },
    }),
    // A redirected POST would lose its body.
    viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    allowedMethods: AllowedMethods.ALLOW_ALL,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    // Cookies, query strings and headers, but API Gateway must see its own Host.
    originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    responseHeadersPolicy: apiPolicy(stack),
  };
  // CSV exports (docs/exports.md): the API writes them to the uploads bucket and answers 303 to a
  // presigned S3 GET on the staff host; this behaviour passes the path and the signature's query
  // string to the bucket's regional endpoint, whose Host is the one the URL was signed for. No
  // cookies or viewer headers reach S3, nothing is cached, and only GET/HEAD are allowed.
  const { uploads } = use(Storage);
  const exportsBehavior: BehaviorOptions = {
    origin: new HttpOrigin(uploads.cdk.bucket.bucketRegionalDomainName, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
    }),
    viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
    cachePolicy: CachePolicy.CACHING_DISABLED,
    originRequestPolicy: new OriginRequestPolicy(stack, "ExportDownloads", {
      comment: "Presigned export downloads: the signature's query string only",
      queryStringBehavior: OriginRequestQueryStringBehavior.all(),
      headerBehavior: OriginRequestHeaderBehavior.none(),
      cookieBehavior: OriginRequestCookieBehavior.none(),
    }),
  };
  const headerPolicies: Record<keyof typeof siteUrlEnv, ResponseHeadersPolicy> = {
    StaffSite: sitePolicy(stack, "StaffHeaders", "staff"),
    JoinSite: sitePolicy(stack, "JoinHeaders", "join"),
  };

  const spaFunction = new CfFunction(stack, "SpaRewrite", {
    code: FunctionCode.fromInline(spaRewrite("staff")),
    runtime: FunctionRuntime.JS_2_0,
    comment: "Serve index.html for / and /login and app.html for the staff site's other routes",
  });
  const joinSpaFunction = new CfFunction(stack, "JoinSpaRewrite", {
    code: FunctionCode.fromInline(spaRewrite("join")),
    runtime: FunctionRuntime.JS_2_0,
    comment: "Serve index.html for / and app.html for the join site's other routes",
  });

  const customDomain = (id: string, host: string | undefined): StaticSiteProps["customDomain"] => {
    if (!host) return undefined;
    if (settings.certificateArn) {
      return {
        domainName: host,
        isExternalDomain: true,
        cdk: {
          certificate: Certificate.fromCertificateArn(stack, `${id}Certificate`, settings.certificateArn),
        },
      };
    }
    return { domainName: host, hostedZone: settings.hostedZone ?? host.split(".").slice(1).join(".") };
  };

  const site = (id: keyof typeof siteUrlEnv, dir: string, host: string | undefined) =>
    new StaticSite(stack, id, {
      path: prebuilt ? path.join(prebuilt, dir) : dir,
      buildCommand: prebuilt ? undefined : "npm run build",
      buildOutput: prebuilt ? "." : "dist",
      // SST writes Vite env types into the app's src/ unless told where: keep them in .sst/.
      vite: prebuilt ? undefined : { types: `../.sst/types/${dir}-env.d.ts` },
      customDomain: customDomain(id, host),
      cdk: {
        distribution: {
          comment: `${stack.stackName} ${dir}`,
          errorResponses: [],
          defaultBehavior: {
            viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
            responseHeadersPolicy: headerPolicies[id],
            functionAssociations: [
              {
                function: id === "JoinSite" ? joinSpaFunction : spaFunction,
                eventType: FunctionEventType.VIEWER_REQUEST,
              },
            ],
          },
          additionalBehaviors:
            id === "StaffSite"
              ? { "/api/*": apiBehavior, "/exports/*": exportsBehavior }
              : { "/api/*": apiBehavior },
        },
      },
    });

  const staff = site("StaffSite", "web-staff", settings.staffDomain);
  const join = site("JoinSite", "web-join", settings.joinDomain);

  // Without a custom domain a site's URL exists only once its distribution does; the functions read it
  // from SSM at cold start (packages/functions/src/aws/secrets.ts) rather than from a circular reference.
  const unknownUrls = [
    settings.staffDomain ? undefined : staff,
    settings.joinDomain ? undefined : join,
  ].filter((s) => s !== undefined);
  if (unknownUrls.length) {
    const consumer = charges.consumerFunction as SstFunction | undefined;
    for (const fn of [
      handler,
      ...Object.values(jobFunctions),
      outboxStream,
      ...(consumer ? [consumer] : []),
    ]) {
      fn.bind(unknownUrls);
    }
  }

  // Under `sst dev` the sites are not deployed and have no URL.
  const outputs: Record<string, string> = {};
  for (const [key, built] of [
    ["StaffUrl", staff],
    ["JoinUrl", join],
  ] as const) {
    const url = built.customDomainUrl ?? built.url;
    if (url) outputs[key] = url;
  }
  stack.addOutputs(outputs);
  return { staff, join };
}
