"""The one stylesheet and the one script of every replay and index page.

The script only shows precomputed frames (no game logic lives here): the move list is the
navigation (a click or Enter on a move goes there), the buttons, the slider and its marks, the
arrow keys (← → a moment, ↑ ↓ a round, Home End) and the address fragment all go through one
``show``. Without JavaScript the page shows the last moment and the whole move list, and the
controls stay hidden (no dead buttons).
"""

from __future__ import annotations

# Okabe-Ito colours: blue #0072B2, vermilion #D55E00, orange #E69F00, bluish green #009E73.
# Every colour also comes with a word, a glyph or a border, never colour alone.
CSS = """
:root{color-scheme:light dark;--ink:#1a1a1a;--muted:#555;--paper:#fff;--line:#ccc;
--blue:#0072B2;--red:#D55E00;--orange:#E69F00;--green:#009E73;--hi:#fdf0d5;--bar:#f4f4f4;
--button:#fff;--pre:#f7f7f7;--info:#eef5fb;--lostbg:#fdf3e1;--redbg:#fbe9e0;--greenbg:#e6f5f0;
--alert:#a33c00;--amber:#8a5a00}
@media (prefers-color-scheme:dark){:root{--ink:#e6e6e6;--muted:#b0b0b0;--paper:#141414;
--line:#4a4a4a;--hi:#3b3020;--bar:#202020;--button:#2b2b2b;--pre:#1e1e1e;--info:#15283a;
--lostbg:#33270f;--redbg:#3a1d10;--greenbg:#0f2e25;--alert:#ff9a5c;--amber:#f0b94a;
--blue:#56B4E9}a{color:#7cc0ff}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:var(--ink);background:var(--paper)}
header{padding:.5rem 1rem;border-bottom:1px solid var(--line)}
h1{font-size:1.2rem;margin:.1rem 0;overflow-wrap:anywhere}
h2{font-size:1.05rem;margin:.3rem 0;overflow-wrap:anywhere}
.summary p,.back{margin:.05rem 0;overflow-wrap:anywhere}
.summary .illegal{color:var(--alert);font-weight:600}
.summary details summary{cursor:pointer;color:var(--muted);font-size:.9em}
.summary details[open] summary{display:none}
.controls{position:sticky;top:0;z-index:2;display:flex;flex-wrap:wrap;gap:.35rem;
align-items:center;padding:.4rem 1rem;background:var(--bar);border-bottom:1px solid var(--line)}
.controls[hidden]{display:none}
.controls button{font-size:1rem;min-width:2.75rem;min-height:2.75rem;border:1px solid #888;
border-radius:.35rem;background:var(--button);color:var(--ink);cursor:pointer;padding:0 .4rem}
.track{flex:1 1 10rem;min-width:8rem;position:relative;padding-bottom:.7rem}
.track input[type=range]{width:100%;min-height:2.2rem;margin:0}
.marks{position:absolute;left:.5rem;right:.5rem;bottom:0;height:.7rem}
.marks a{position:absolute;top:0;width:.5rem;height:.7rem;margin-left:-.25rem;
border-radius:.1rem;text-decoration:none}
.marks a.violation{background:var(--red)}.marks a.lost{background:var(--orange);height:.5rem}
.marks a.round{background:var(--muted);width:2px;margin-left:-1px}
#pc-pos{font-variant-numeric:tabular-nums;white-space:nowrap}
#pc-status{flex-basis:100%;margin:0;color:var(--alert);font-weight:600}
#pc-status:empty{display:none}
button:focus-visible,input:focus-visible,a:focus-visible,li:focus-visible{
outline:3px solid var(--blue);outline-offset:2px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(16rem,2fr);gap:1rem;padding:1rem}
main.index{display:block;overflow-x:auto}
figure{margin:0;overflow-x:auto;max-width:100%}
.pair{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-start}
.pair figure{flex:1 1 var(--pmin,0);min-width:0}
figcaption{font-weight:600;font-size:.9rem}
figure svg{width:100%;height:auto;display:block;min-width:var(--min,0);
max-width:var(--max,100%);max-height:max(75vh,var(--minh,0px))}
pre{overflow:auto;font-size:.85rem;background:var(--pre);padding:.5rem;user-select:text}
.legend{color:var(--muted);font-size:.9rem}
.notes{list-style:none;padding:0;margin:.5rem 0}
.notes li{padding:.35rem .5rem;margin:.25rem 0;border-left:.35rem solid var(--blue);
background:var(--info);overflow-wrap:anywhere}
.notes li.lost{border-left-color:var(--orange);background:var(--lostbg)}
.notes li.violation{border-left-color:var(--red);background:var(--redbg);font-weight:600}
.notes li.score{border-left-color:var(--green);background:var(--greenbg)}
.notes li.slip{border-left-color:var(--red);background:var(--redbg)}
.notes li.guess{border-left-color:var(--orange);background:var(--lostbg)}
.strip{display:flex;flex-wrap:wrap;gap:2px;margin:.3rem 0}
.strip a{display:inline-block;width:1.1rem;height:1.4rem;text-align:center;font-weight:700;
font-size:.8rem;color:#fff;text-decoration:none;background:var(--green)}
.strip a.mark-slip{background:var(--red)}.strip a.mark-guess{background:var(--orange)}
.events .mark{font-weight:700;text-transform:uppercase;font-size:.8rem}
.events .mark-slip{color:var(--alert)}.events .mark-guess{color:var(--amber)}
.strip a.mark-harmless{background:#999}.events .mark-harmless{color:var(--muted)}
#pc-costly:checked~ol li:not(.costly){display:none}
.notes .kind{font-weight:700;text-transform:uppercase;font-size:.8rem;margin-right:.4rem}
.rule{display:block;font-size:.88rem;color:var(--muted);font-weight:400}
.rule .section{font-weight:700}
.scores{border-collapse:collapse;margin:.5rem 0;max-width:100%}
.scores caption{text-align:left;font-weight:700}
.scores td,.scores th{border:1px solid var(--line);padding:.2rem .6rem;text-align:left;
overflow-wrap:anywhere}
.events ol{padding-left:2.6rem;margin:0;max-height:75vh;overflow:auto}
.events li{padding:.2rem .4rem;border-left:.3rem solid transparent;margin:.1rem 0;
overflow-wrap:anywhere}
.events li a.go{color:inherit;text-decoration:none;display:block}
.events li a.go:hover{text-decoration:underline}
.events li.current{background:var(--hi);border-left-color:var(--orange)}
.events li.current a.go::before{content:"\\25B6  now: ";font-weight:700}
.events li.violation{border-left-color:var(--red)}
.events li.lost .tag{color:var(--amber)}
.events .tag{font-weight:700;color:var(--alert);text-transform:uppercase;font-size:.8rem}
.events .where{color:var(--muted)}
table.listing{border-collapse:collapse;width:100%}
table.listing th,table.listing td{border:1px solid var(--line);padding:.3rem .5rem;
text-align:left;vertical-align:top;overflow-wrap:break-word}
table.listing td:first-child,table.listing td:last-child{overflow-wrap:anywhere}
@media (max-width:720px){main{grid-template-columns:minmax(0,1fr);padding:.5rem}
header{padding:.25rem .5rem}h1{font-size:.95rem;line-height:1.25}
.summary{font-size:.78rem;line-height:1.25}
h1,.summary .illegal{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;
overflow:hidden}
.controls{padding:.3rem .5rem;gap:.25rem}.controls button{min-width:2.6rem}
table.listing{font-size:.85rem;table-layout:fixed}
table.listing th,table.listing td{padding:.2rem .3rem;overflow-wrap:anywhere}
.strip{flex-wrap:nowrap;overflow-x:auto;margin:.15rem 0}.strip a{flex:none;height:1.1rem;
font-size:.7rem;width:.9rem}
.pair{flex-direction:column}.pair figure{flex:none;width:100%}}
@media print{.controls,noscript,.back{display:none}main{display:block}
.events ol{max-height:none;overflow:visible}figure svg{max-width:100%;page-break-inside:avoid}
body{font-size:11pt}}
"""

SCRIPT = """
(function(){
"use strict";
var $=function(id){return document.getElementById(id);};
var D=JSON.parse($("pc-data").textContent);
var F=D.frames,n=F.length,cur=-1,byKey={};
for(var k=0;k<n;k++){byKey[F[k].k]=k;}
var list=$("pc-events"),items=list.children;
var pic=$("pc-picture"),txt=$("pc-text"),cap=$("pc-caption"),notes=$("pc-notes"),
scores=$("pc-scores"),slider=$("pc-slider"),pos=$("pc-pos"),live=$("pc-live"),
status=$("pc-status"),lastPic=-2,lastEv=null,sliding=false;
function picture(i){var ids=D.pictures[i],out=new Array(ids.length);
for(var j=0;j<ids.length;j++){out[j]=D.lines[ids[j]];}return out.join("\\n");}
function put(e,text){var parts=String(text).split(/([\\u2068\\u2069])/),at=e;
e.textContent="";for(var j=0;j<parts.length;j++){var s=parts[j];
if(s==="\\u2068"){at=e.appendChild(document.createElement("bdi"));}
else if(s==="\\u2069"){at=e;}else if(s){at.appendChild(document.createTextNode(s));}}}
function el(tag,cls,text){var e=document.createElement(tag);if(cls){e.className=cls;}
if(text!==undefined){put(e,text);}return e;}
function roundOf(i){var key=F[i].k,d=key.indexOf(".");return d<0?key:key.slice(0,d);}
var WORD={info:"",lost:"Lost",violation:"Violation",score:"Check",slip:"Slip",guess:"Guess"};
function reveal(){var figs=pic.querySelectorAll("figure");figs=figs.length?figs:[pic];
for(var j=0;j<figs.length;j++){var fig=figs[j];if(fig.scrollWidth<=fig.clientWidth+1){continue;}
var tiles=fig.querySelectorAll(".tile"),now=fig.querySelector(".current")||
(tiles.length?tiles[tiles.length-1]:null),lost=fig.querySelector(".lost");if(!now){continue;}
var a=fig.getBoundingClientRect(),b=now.getBoundingClientRect(),l=b.left,r=b.right;
if(lost){var c=lost.getBoundingClientRect();if(Math.max(r,c.right)-Math.min(l,c.left)<=a.width){
l=Math.min(l,c.left);r=Math.max(r,c.right);}}
if(l<a.left||r>a.right){fig.scrollLeft+=(l+r-a.left-a.right)/2;}}}
function said(li){var a=li.querySelector("a.go"),out=[];if(!a){return "";}
for(var j=0;j<a.childNodes.length;j++){var c=a.childNodes[j];
if(c.nodeType===1&&c.classList.contains("where")){continue;}
var t=c.textContent.trim();if(t){out.push(c.nodeType===1&&c.classList.contains("tag")?
t.charAt(0).toUpperCase()+t.slice(1).toLowerCase()+":":t);}}
var r=li.querySelector(".rule .section");return [out.join(" "),r?r.textContent:""];}
function show(i,how){
if(i<0){i=0;}if(i>=n){i=n-1;}cur=i;var f=F[i];
put(cap,f.c);
var p=f.p===undefined?-1:f.p;
if(p!==lastPic){pic.innerHTML=p<0?"":picture(p);lastPic=p;}
if(f.t){put(txt,f.t);txt.hidden=false;}else{txt.textContent="";txt.hidden=true;}
notes.textContent="";
(f.n||[]).forEach(function(m){var li=el("li",m[0]);
if(WORD[m[0]]){li.appendChild(el("span","kind",WORD[m[0]]));}
li.appendChild(el("span","",m[1]));
if(m.length>2){var r=D.rules[m[2]],s=el("span","rule");s.appendChild(el("span","section",r[0]));
s.appendChild(document.createTextNode(" "));s.appendChild(el("q","",r[1]));li.appendChild(s);}
notes.appendChild(li);});
var body=scores.tBodies[0];body.textContent="";
(f.s||[]).forEach(function(r){var tr=el("tr"),th=el("th");th.appendChild(el("bdi","",r[0]));
tr.appendChild(th);tr.appendChild(el("td","",String(r[1])));body.appendChild(tr);});
scores.hidden=!(f.s&&f.s.length);
if(lastEv){lastEv.classList.remove("current");lastEv.removeAttribute("aria-current");}
lastEv=f.e===undefined?null:items[f.e];
if(lastEv){lastEv.classList.add("current");lastEv.setAttribute("aria-current","step");
if(list.scrollHeight>list.clientHeight){
list.scrollTop=lastEv.offsetTop-list.offsetTop-list.clientHeight/3;}}
slider.value=String(i);slider.setAttribute("aria-valuetext",cap.textContent);
pos.textContent=(i+1)+" / "+n;
var heard=cap.textContent,ev=lastEv?said(lastEv):["",""];
if(ev[0]&&heard.indexOf(ev[0])<0){heard+=". "+ev[0];}
if(ev[1]){heard+=". Rule: "+ev[1]+".";}live.textContent=heard;
document.title=document.title.replace(/ \\u2014 .*$/,"")+" \\u2014 "+f.k;
if(how){var url="#"+encodeURIComponent(f.k);
try{if(how==="push"&&location.hash!==url){history.pushState(null,"",url);}
else{history.replaceState(null,"",url);}}catch(e){location.hash=f.k;}}
document.body.setAttribute("data-moment",f.k);
reveal();
}
function go(i,how){status.textContent="";show(i,how||"push");}
function keyOf(raw){var h=raw;try{h=decodeURIComponent(raw);}catch(e){}
return h.indexOf("m-")===0&&!Object.prototype.hasOwnProperty.call(byKey,h)?h.slice(2):h;}
function fromHash(){var h=keyOf(location.hash.replace(/^#/,""));
if(!h){return -1;}
if(Object.prototype.hasOwnProperty.call(byKey,h)){return byKey[h];}
status.textContent="#"+h+": no such moment in this page; showing the start.";return -2;}
function round(step){var r=roundOf(cur),i=cur;
if(step<0){while(i>0&&roundOf(i-1)===r){i--;}
if(i===cur&&i>0){r=roundOf(i-1);i--;while(i>0&&roundOf(i-1)===r){i--;}}return i;}
while(i<n-1&&roundOf(i)===r){i++;}return i;}
function nextViolation(){for(var j=1;j<=n;j++){var i=(cur+j)%n,e=F[i].e;
if(e!==undefined&&items[e].classList.contains("violation")){return i;}}return cur;}
$("pc-first").addEventListener("click",function(){go(0);});
$("pc-prev").addEventListener("click",function(){go(cur-1);});
$("pc-next").addEventListener("click",function(){go(cur+1);});
$("pc-last").addEventListener("click",function(){go(n-1);});
var nv=$("pc-nextv");if(nv){nv.addEventListener("click",function(){go(nextViolation());});}
$("pc-copy").addEventListener("click",function(){var url=location.href;
function done(){status.textContent="Link to this moment copied: "+url;}
function fail(){status.textContent="Copy this link: "+url;}
try{navigator.clipboard.writeText(url).then(done,fail);}catch(e){fail();}});
slider.addEventListener("input",function(){go(parseInt(slider.value,10),sliding?"replace":"push");
sliding=true;});
slider.addEventListener("change",function(){sliding=false;});
function follow(e){var a=e.target.closest?e.target.closest("a[href^='#']"):null;
if(!a){return;}var key=keyOf(a.getAttribute("href").slice(1));
if(Object.prototype.hasOwnProperty.call(byKey,key)){e.preventDefault();go(byKey[key]);}}
list.addEventListener("click",follow);
$("pc-marks").addEventListener("click",follow);
window.addEventListener("hashchange",function(){var i=fromHash();if(i>=0&&i!==cur){show(i);}});
document.addEventListener("keydown",function(e){
if(e.altKey||e.ctrlKey||e.metaKey){return;}
var t=e.target&&e.target.tagName,up=e.key==="ArrowUp",down=e.key==="ArrowDown";
if(up||down){if(e.target===slider||list.contains(e.target)){e.preventDefault();
go(round(up?-1:1));}return;}
if(e.target===slider||t==="INPUT"||t==="TEXTAREA"||t==="SELECT"){return;}
var to={ArrowLeft:cur-1,ArrowRight:cur+1,Home:0,End:n-1}[e.key];
if(to!==undefined){e.preventDefault();go(to);}});
$("pc-controls").hidden=false;
var more=$("pc-more");if(more&&window.matchMedia&&matchMedia("(max-width:720px)").matches){
more.open=false;}
var start=fromHash();show(start<0?0:start,start>=0?"":"replace");
if(start>=0){window.scrollTo(0,0);}
})();
"""
