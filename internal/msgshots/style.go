package msgshots

// css is Discord's dark theme as its client draws a message (colours read
// off the screenshots in Discord's component reference; sizes from the
// client's stylesheet at 100% zoom). gg sans, Discord's font, is not free:
// the stack falls back as Discord's own does, to Noto Sans (Debian:
// fonts-noto-core), and draws emoji with Noto Color Emoji where Discord
// draws Twemoji.
const css = `
*{box-sizing:border-box;margin:0;padding:0}
html,body{background:#1a1a1e}
body{font-family:"gg sans","Noto Sans","Helvetica Neue",Helvetica,Arial,sans-serif,"Noto Color Emoji";
 color:#dfe0e2;font-size:16px;line-height:1.375;-webkit-font-smoothing:antialiased;padding:8px 0 12px}
.message{position:relative;padding:2px 16px 2px 72px;min-height:44px}
.avatar{position:absolute;left:16px;top:4px;width:40px;height:40px;border-radius:50%;background:#5865f2}
.header{display:flex;align-items:center;gap:4px;line-height:22px;min-height:22px}
.username{font-weight:500;color:#f2f3f5;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.app-tag{background:#5865f2;color:#fff;font-size:10px;font-weight:600;line-height:15px;height:15px;padding:0 4px;border-radius:3px;text-transform:uppercase;margin-left:2px}
.timestamp{color:#82838a;font-size:12px;margin-left:4px;white-space:nowrap}
.body{display:flex;flex-direction:column;gap:4px;overflow-wrap:anywhere}
.content,.text-display,.md-text{white-space:pre-wrap}
.md-text{min-height:1.375em}
h1.md-heading{font-size:24px;line-height:1.375;font-weight:700;margin:8px 0 0;color:#f2f3f5}
h2.md-heading{font-size:20px;line-height:1.375;font-weight:700;margin:8px 0 0;color:#f2f3f5}
h3.md-heading{font-size:16px;line-height:1.375;font-weight:700;margin:8px 0 0;color:#f2f3f5}
.md-subtext{font-size:13px;line-height:1.125rem;color:#94959b}
.md-quote{display:block;border-left:4px solid #4e5058;border-radius:4px;padding:0 8px 0 12px;margin:0}
.md-list{margin:4px 0 4px 16px;padding-left:0}
.md-list li{margin-bottom:4px}
ul.md-list{list-style:disc}
ul.md-list ul.md-list{list-style:circle}
.md-code{font-family:"Noto Sans Mono","DejaVu Sans Mono",Consolas,monospace;font-size:0.85em;background:#2b2d31;border:1px solid #3f4147;border-radius:4px;padding:0 .2em}
.md-codeblock{font-family:"Noto Sans Mono","DejaVu Sans Mono",Consolas,monospace;font-size:14px;line-height:18px;background:#2b2d31;border:1px solid #3f4147;border-radius:4px;padding:8px;white-space:pre-wrap;margin-top:6px}
.md-spoiler{background:#111214;color:transparent;border-radius:3px}
.md-link{color:#00a8fc}
.md-timestamp{background:rgba(78,80,88,.48);border-radius:3px;padding:0 2px}
.mention{background:rgba(88,101,242,.3);color:#c9cdfb;border-radius:3px;padding:0 2px;font-weight:500}
img.emoji{width:1.375em;height:1.375em;vertical-align:bottom;object-fit:contain}
strong{font-weight:700}
.attachment,.embed-image,.gallery{margin-top:4px}
img.media,.media.missing{display:block;border-radius:8px;background:#2b2d31}
.missing{background:#2b2d31;border-radius:8px}
.file{display:flex;flex-direction:column;background:#242429;border:1px solid #323237;border-radius:8px;padding:10px 12px;max-width:400px}
.file-name{color:#00a8fc}
.file-size{color:#94959b;font-size:12px}
.embed{background:#242429;border:1px solid #323237;border-left:4px solid #202225;border-radius:4px;margin-top:4px}
.embed-grid{display:flex;padding:8px 16px 16px 12px;gap:16px}
.embed-main{flex:1;min-width:0}
.embed-author{font-size:14px;font-weight:600;color:#f2f3f5;margin-top:8px}
.embed-title{font-size:16px;font-weight:600;color:#f2f3f5;margin-top:8px}
.embed-description{font-size:14px;line-height:18px;margin-top:8px;white-space:pre-wrap}
.embed-fields{display:grid;grid-template-columns:repeat(12,1fr);gap:8px;margin-top:8px}
.embed-field-name{font-size:14px;font-weight:600;color:#f2f3f5;line-height:18px}
.embed-field-value{font-size:14px;line-height:18px;white-space:pre-wrap}
.embed-footer{font-size:12px;color:#dfe0e2;margin-top:8px}
.embed-thumbnail{margin-top:8px;flex:none}
.embed-thumbnail img{border-radius:4px}
.action-row{display:flex;flex-wrap:wrap;gap:8px;margin-top:4px}
.button{display:inline-flex;align-items:center;justify-content:center;gap:4px;min-height:32px;min-width:60px;padding:2px 16px;border-radius:8px;font-size:14px;font-weight:500;line-height:16px;color:#fff;white-space:nowrap}
.button.primary{background:#5865f2}
.button.secondary,.button.link{background:#323237}
.button.success{background:#00863a}
.button.danger{background:#c13d3f}
.button.premium{background:#5865f2}
.button.disabled{opacity:.5}
.button-emoji{font-size:18px;line-height:18px;display:inline-flex}
.button-emoji img.emoji{width:20px;height:20px}
.link-mark{font-size:14px;margin-left:4px}
.select{display:flex;align-items:center;justify-content:space-between;width:100%;min-height:40px;padding:8px 8px 8px 12px;background:#1e1f22;border:1px solid #323237;border-radius:8px;font-size:16px;margin-top:4px}
.select.disabled{opacity:.5}
.select .placeholder{color:#94959b}
.chevron{color:#dfe0e2;font-size:18px;line-height:12px;margin-left:8px}
.container{background:#242429;border:1px solid #323237;border-radius:8px;padding:16px;display:flex;flex-direction:column;gap:8px;margin-top:4px}
.container.accented{border-left:4px solid}
.container .action-row{margin-top:0}
.section{display:flex;gap:16px;align-items:flex-start}
.section-text{flex:1;min-width:0;display:flex;flex-direction:column;gap:8px}
.section-accessory{flex:none}
img.thumbnail,.thumbnail.missing{display:block;width:85px;height:85px;object-fit:cover;border-radius:8px}
.separator{height:8px}
.separator.large{height:16px}
.separator.divider{height:17px;background:linear-gradient(#3f3f46,#3f3f46) no-repeat center/100% 1px}
.separator.large.divider{height:33px}
.gallery{display:flex;flex-direction:column;gap:4px}
.gallery.single{display:block}
.gallery.three{display:grid;grid-template-columns:2fr 1fr;grid-template-rows:1fr 1fr;gap:4px}
.gallery-row{display:flex;gap:4px}
.gallery-row>*{flex:1;min-width:0}
img.tile,.tile.missing{display:block;width:100%;height:100%;object-fit:cover;border-radius:8px}
.spoiler{filter:blur(44px)}
`
