// A page whose own scripts and styles do not load cannot report it through React: nothing of
// React runs. The usual cause is an export served from a sub-folder it was not built for (the
// HTML asks for /_next/... at the host's root, which answers 404), and the page then sits
// unstyled on "Loading the flasher…" forever. This inline script, in <head> of every page, says
// so on the page instead: a banner naming a file that failed and, when the URL suggests a
// sub-folder, the SITE_BASE_PATH to build with; and each "Loading…" placeholder says why it
// never finishes, also one the parser reaches after the banner went up (on a loaded machine the
// body exists, and the first failure is known, before the page's placeholder is parsed).
//
// It runs after the stylesheets have settled (an inline script waits for the style sheets before
// it), so a same-origin stylesheet without readable rules has failed (Chromium gives one that could
// not be fetched a sheet whose rules cannot be read); scripts that fail later are caught by an
// error listener, and those that failed before it by their Resource Timing entries. React's
// hydration removes the banner it does not know about; it is put back.

/** The banner's id, for tests and for not adding it twice. */
export const ASSET_ERROR_ID = 'site-asset-error';

/** The route folders of the export: what is left of the path before one is the sub-folder. */
const routeFolders = ['docs', 'downloads', 'esp32-flasher'];

export function assetCheckScript(basePath: string): string {
  const assets = JSON.stringify(`${basePath}/_next/`);
  const base = JSON.stringify(basePath);
  const routes = JSON.stringify(routeFolders);
  const id = JSON.stringify(ASSET_ERROR_ID);
  // Plain ES5, no dependencies: it must run where nothing else of the site does.
  return `(function(){
var assets=${assets},base=${base},routes=${routes},failed=[],box=null,detail=null,
why='This part of the page cannot load: its scripts did not load (see the message at the top of the page).';
function mine(url){try{var u=new URL(url,location.href);return u.origin===location.origin&&u.pathname.indexOf(assets)===0}catch(e){return false}}
function fail(url){if(failed.indexOf(url)<0)failed.push(url);if(document.body)show();else document.addEventListener('DOMContentLoaded',show)}
function subFolder(){var p=location.pathname;if(p.indexOf(base+'/')!==0)return null;var parts=p.slice(base.length).split('/');
for(var i=1;i<parts.length;i++)if(routes.indexOf(parts[i])>=0)return i>1?base+parts.slice(0,i).join('/'):null;
var rest=p.slice(base.length).replace(/\\/(index\\.html)?$/,'');return rest&&rest!=='/404.html'?base+rest:null}
function show(){if(!document.body)return;
if(!box){box=document.createElement('div');box.id=${id};box.setAttribute('role','alert');
box.style.cssText='margin:0;padding:12px 16px;background:#fcebea;color:#5c120d;border-bottom:2px solid #b3261e;font:16px/1.5 system-ui,sans-serif';
var title=document.createElement('strong');title.textContent='This page could not load its scripts and styles.';box.appendChild(title);
detail=document.createTextNode('');box.appendChild(detail);
var place=function(){if(!box.isConnected&&document.body)document.body.insertBefore(box,document.body.firstChild);mark()};
place();new MutationObserver(place).observe(document.documentElement,{childList:true,subtree:true})}
var text=' '+failed.length+(failed.length>1?' files':' file')+' from '+location.origin+assets+' failed to load, for example '+failed[0]+'.';
var folder=subFolder();
if(folder)text+=' If this site is served from the sub-folder '+folder+'/, it has to be built for it: SITE_BASE_PATH='+folder+' npm run build -w site (see "Deploy" in site/README.md).';
detail.textContent=text+' Otherwise, reload the page.'}
function mark(){var waiting=document.querySelectorAll('.chunk-loading');
for(var i=0;i<waiting.length;i++)if(waiting[i].textContent!==why)waiting[i].textContent=why}
var links=document.querySelectorAll('link[rel="stylesheet"]');
function loaded(link){try{return !!link.sheet&&link.sheet.cssRules.length>0}catch(e){return false}}
for(var i=0;i<links.length;i++)if(mine(links[i].href)&&!loaded(links[i]))fail(links[i].href);
window.addEventListener('error',function(e){var t=e.target;if(!t||!t.tagName)return;var url=t.src||t.href;
if((t.tagName==='SCRIPT'||t.tagName==='LINK')&&url&&mine(url))fail(url)},true);
try{var entries=performance.getEntriesByType('resource');for(var j=0;j<entries.length;j++){var r=entries[j];
if(mine(r.name)&&r.responseStatus>=400)fail(r.name)}}catch(e){}
})()`;
}
