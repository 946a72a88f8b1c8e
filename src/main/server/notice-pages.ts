/**
 * The few HTML pages the loopback server writes itself. They hold no script
 * (the CSP would block it anyway) and no text from the request.
 */

const page = (title: string, body: string, head = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head>` +
  `<body style="font-family: system-ui, sans-serif; margin: 3rem">${body}</body></html>\n`;

/** Shown without the session cookie: the only way in is the URL from the terminal. */
export const NOT_SIGNED_IN_PAGE = page(
  'vak explorer: open the printed URL',
  '<h1>vak explorer</h1><p>This server only answers the browser that opened its URL. ' +
    'Open the URL printed in the terminal where you ran <code>vak-explorer serve</code> ' +
    '(it ends in <code>?token=…</code>).</p>',
);

/** Shown for a token that is wrong or used up. */
export const BAD_TOKEN_PAGE = page(
  'vak explorer: wrong token',
  '<h1>vak explorer</h1><p>That token is not valid for this server (a one-time link is used up, ' +
    'or the server was restarted). Open the URL printed in the terminal.</p>',
);

/**
 * A same-origin hop for a navigation that arrived cross-site (e.g. a redirect
 * in a chain that started on another site or a file): the browser holds back
 * a SameSite=Strict cookie there, and sends it again once our own page navigates.
 */
export const SAME_SITE_HOP_PAGE = page(
  'vak explorer',
  '<p>Opening… (<a href="/?hop">continue</a>)</p>',
  '<meta http-equiv="refresh" content="0;url=/?hop">',
);
