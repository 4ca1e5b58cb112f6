// The preview's button icons, shared by its page and its script (no imports).

/** The buttons' icons, drawn in the text colour (fonts may lack the media-control glyphs). */
export const ICONS = {
  back: '<svg viewBox="0 0 16 16" aria-hidden="true"><rect x="3" y="3" width="2" height="10"/><path d="M13 3v10L6 8z"/></svg>',
  play: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2v12l10-6z"/></svg>',
  pause: '<svg viewBox="0 0 16 16" aria-hidden="true"><rect x="3" y="2" width="3.5" height="12"/><rect x="9.5" y="2" width="3.5" height="12"/></svg>',
  forward: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M3 3v10l7-5z"/><rect x="11" y="3" width="2" height="10"/></svg>',
  nextPush: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M1 3v10l6-5zM8 3v10l6-5z"/><rect x="14" y="3" width="1.5" height="10"/></svg>',
  zoomIn: '<svg viewBox="0 0 16 16" aria-hidden="true"><rect x="2" y="7" width="12" height="2"/><rect x="7" y="2" width="2" height="12"/></svg>',
  zoomOut: '<svg viewBox="0 0 16 16" aria-hidden="true"><rect x="2" y="7" width="12" height="2"/></svg>',
  fit: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M1 1h5v2H3v3H1zM10 1h5v5h-2V3h-3zM1 10h2v3h3v2H1zM13 10h2v5h-5v-2h3z"/></svg>',
  difficulty: '<svg viewBox="0 0 16 16" aria-hidden="true"><rect x="1" y="9" width="4" height="6" opacity="0.45"/><rect x="6" y="5" width="4" height="10" opacity="0.7"/><rect x="11" y="1" width="4" height="14"/></svg>',
  follow: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M7 0h2v4H7zM7 12h2v4H7zM0 7h4v2H0zM12 7h4v2h-4z"/><rect x="5" y="5" width="6" height="6" rx="1"/></svg>',
};
