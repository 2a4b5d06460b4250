import { createHash } from 'node:crypto';
import fs from 'node:fs';
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';
const STOP = new Set(eng);
const pt = (t:string)=>{const l=t.toLowerCase(); if(l.length<2||STOP.has(l)) return null; return stemmer(l);};
const tok=MiniSearch.getDefault('tokenize');
const terms=(s:string)=>[...new Set(tok(s).map(pt).filter(Boolean) as string[])];
const threads = JSON.parse(fs.readFileSync('/work/shared/data/faq/stackexchange-faq.json','utf8')).root.qapair;
const hash = (text: string, salt: string) => createHash('sha256').update(salt + text).digest().readUInt32BE(0);
const held=(t:any)=>hash(t.question,'kb')%5===0; const part=(t:any)=>hash(t.question,'part')%2===0?'v':'t';
const kb=threads.filter((t:any)=>!held(t));
for (const boost of [4,10,20]) {
const ms = new MiniSearch({fields:['heading','body'], processTerm:pt, searchOptions:{boost:{heading:boost}, processTerm:pt}});
ms.addAll(kb.map((t:any,i:number)=>({id:i, heading:t.question, body:[t.answer].flat().join(' ')})));
const rows:any[]=[];
const run=(q:string,thread:number|null,p:string)=>{const m=ms.search(q); const qt=terms(q); const b=m[0]; if(!qt.length) return;
 const hc = b? Object.entries(b.match).filter(([,f])=>(f as string[]).includes('heading')).length/qt.length:0;
 rows.push({thread,p,ok:b?.id===thread,mg:b?(b.score-(m[1]?.score??0))/b.score:0,cov:b?b.terms.length/qt.length:0,hc});};
kb.forEach((t:any,i:number)=>t.rephr.filter((r:any)=>typeof r==='string'&&r.trim().length>=4).forEach((r:string)=>run(r,i,part(t))));
threads.filter(held).forEach((t:any)=>[t.question,...t.rephr].filter((r:any)=>typeof r==='string'&&r.trim().length>=4).forEach((r:string)=>run(r,null,part(t))));
for (const P of ['v']) { const R=rows.filter(r=>r.p===P); const A=R.filter(r=>r.thread!==null), U=R.filter(r=>r.thread===null);
 let best:any=null;
 for (let a=0.2;a<=0.9;a+=0.05) for (let b=0;b<=1;b+=0.05) for (const f of ['cov','hc']) { const made=(r:any)=>r.mg>=a&&r[f]>=b; const mA=A.filter(made), mU=U.filter(made);
  const prec=mA.filter(r=>r.ok).length/Math.max(1,mA.length+mU.length), cov=mA.length/A.length, un=mU.length/U.length;
  if(prec>=0.95&&un<=0.05&&(!best||cov>best.cov)) best={a:a.toFixed(2),b:b.toFixed(2),f,prec,cov,un}; }
 for (let s=0.1;s<=0.9;s+=0.02) { const made=(r:any)=>r.mg*r.hc>=s; const mA=A.filter(made), mU=U.filter(made);
  const prec=mA.filter(r=>r.ok).length/Math.max(1,mA.length+mU.length), cov=mA.length/A.length, un=mU.length/U.length;
  if(prec>=0.95&&un<=0.05&&(!best||cov>best.cov)) best={prod:s.toFixed(2),prec,cov,un}; }
 console.log('boost',boost,'top1',(A.filter(r=>r.ok).length/A.length).toFixed(3), JSON.stringify(best)); }
}
