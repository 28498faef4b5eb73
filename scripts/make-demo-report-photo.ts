/**
 * Makes the demo's report photo (src/server/db/demo/assets/report-photo.jpg): a driver report form on a
 * clipboard, drawn as HTML and shot as a JPEG in Debian's Chromium. Run once; the result is committed.
 *
 *   npx tsx scripts/make-demo-report-photo.ts
 */
import { chromium } from '@playwright/test';

const html = `<body style="margin:0;background:linear-gradient(135deg,#6d5c4d,#3e342b);display:flex;align-items:center;justify-content:center;height:100vh;font-family:serif">
  <div style="width:440px;padding:28px 34px;background:#fbfaf5;box-shadow:0 12px 30px rgba(0,0,0,.5);transform:rotate(-3deg);color:#222">
    <div style="text-align:center;font-weight:bold;font-size:20px;margin-bottom:14px">РАПОРТ</div>
    <div style="font-size:14px;line-height:1.9">
      Контролёр: <u>&nbsp;Контролёрова К.&nbsp;</u><br>Маршрут № <u>&nbsp;&nbsp;210&nbsp;&nbsp;</u> Гаражный № <u>&nbsp;15036&nbsp;</u><br>
      Водитель, табельный № <u>&nbsp;85170&nbsp;</u><br>Нарушение: <u>&nbsp;проезд без оплаты, билет не выдан&nbsp;</u><br>
      <span style="display:inline-block;width:100%;border-bottom:1px solid #555">&nbsp;</span><br>
      <span style="display:inline-block;width:100%;border-bottom:1px solid #555">&nbsp;</span><br>
      Подпись <span style="font-family:cursive;font-size:18px">&nbsp;Кон&nbsp;</span>
    </div>
  </div></body>`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
await page.setContent(html);
await page.screenshot({ path: 'src/server/db/demo/assets/report-photo.jpg', type: 'jpeg', quality: 70 });
await browser.close();
