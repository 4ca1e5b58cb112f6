// The preview's button icons, shared by its page and its script (no imports).

/** The buttons' icons, drawn in the text colour (fonts may lack the media-control glyphs). */
export const ICONS = {
  back: '<svg viewBox="0 0 16 16" aria-hidden="true"><rect x="3" y="3" width="2" height="10"/><path d="M13 3v10L6 8z"/></svg>',
  play: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2v12l10-6z"/></svg>',
  pause: '<svg viewBox="0 0 16 16" aria-hidden="true"><rect x="3" y="2" width="3.5" height="12"/><rect x="9.5" y="2" width="3.5" height="12"/></svg>',
  forward: '<svg viewBox="0 0 16 16" aria-hidden="true"><path d="M3 3v10l7-5z"/><rect x="11" y="3" width="2" height="10"/></svg>',
};
