import type { Random } from './random';

/** Russian words the demo people and places are made of. */
const SURNAMES = (
  'Иванов Смирнов Кузнецов Попов Васильев Петров Соколов Михайлов Новиков Фёдоров Морозов Волков Алексеев Лебедев ' +
  'Семёнов Егоров Павлов Козлов Степанов Николаев Орлов Андреев Макаров Никитин Захаров Зайцев Соловьёв Борисов Яковлев ' +
  'Григорьев Романов Воробьёв Сергеев Кузьмин Фролов Александров Дмитриев Королёв Гусев Киселёв Ильин Максимов Поляков ' +
  'Сорокин Виноградов Ковалёв Белов Медведев Антонов Тарасов Жуков Баранов Филиппов Комаров Давыдов Беляев Герасимов ' +
  'Богданов Осипов Сидоров Матвеев Титов Марков Миронов Крылов Куликов Карпов Власов Мельников Денисов Гаврилов Тихонов ' +
  'Казаков Афанасьев Данилов Савельев Тимофеев Фомин Чернов Абрамов Мартынов Ефимов Федотов Щербаков Назаров Калинин ' +
  'Исаев Чернышёв Быков Маслов Родионов Коновалов Лазарев Воронин Климов Филатов Пономарёв Голубев Кудрявцев Прохоров ' +
  'Наумов Потапов Журавлёв Овчинников Трофимов Леонов Соболев Ермаков Колесников Гончаров Емельянов Никифоров Грачёв ' +
  'Котов Гришин Ефремов Архипов Громов Кириллов Малышев Панов Моисеев Румянцев Акимов Кондратьев Бирюков Горбунов ' +
  'Анисимов Ерёмин Тихомиров Галкин Лукьянов Михеев Скворцов Юдин Белоусов Нестеров Симонов Прокофьев Харитонов Князев ' +
  'Цветков Левин Митрофанов Воронов Аксёнов Мальцев Логинов Горшков Савин Краснов Майоров Демидов Елисеев Рыбаков ' +
  'Сафонов Плотников Дёмин Хохлов Жданов Носов Кочетков Богомолов Шестаков Вишневский Островский Покровский Зелинский ' +
  'Яблонский Шевчук Коваленко Бондаренко Ткаченко Кравчук Алиев Сафаров Каримов Юсупов'
).split(' ');

const MALE_NAMES = (
  'Александр Алексей Андрей Антон Артём Борис Вадим Валерий Василий Виктор Виталий Владимир Владислав Вячеслав ' +
  'Геннадий Георгий Григорий Денис Дмитрий Евгений Егор Иван Игорь Илья Кирилл Константин Леонид Максим Михаил ' +
  'Никита Николай Олег Павел Пётр Роман Руслан Сергей Станислав Степан Тимур Фёдор Юрий Ярослав'
).split(' ');

const FEMALE_NAMES = (
  'Анна Валентина Галина Дарья Екатерина Елена Ирина Людмила Марина Мария Наталья Надежда Нина Ольга Светлана ' +
  'Татьяна Юлия Ксения Алина Вера Лариса Оксана'
).split(' ');

/** Fathers' names, each giving the male and the female patronymic by its ending. */
const PATRONYMIC_STEMS = (
  'Александров Алексеев Андреев Борисов Васильев Викторов Владимиров Геннадьев Дмитриев Евгеньев Иванов Игорев ' +
  'Константинов Михайлов Николаев Олегов Павлов Петров Романов Сергеев Юрьев Анатольев Валерьев Григорьев Фёдоров Степанов'
).split(' ');

export interface PersonName {
  last: string;
  first: string;
  middle: string | null;
}

/** A surname in its feminine form: -ов/-ев/-ин → -ова/-ева/-ина, -ский → -ская; others do not change. */
export function feminine(surname: string): string {
  if (/(ов|ев|ёв|ин|ын)$/.test(surname)) return `${surname}а`;
  if (/ий$/.test(surname)) return `${surname.slice(0, -2)}ая`;
  return surname;
}

export function personName(random: Random, femaleShare: number): PersonName {
  const female = random.chance(femaleShare);
  const surname = random.pick(SURNAMES);
  const stem = random.pick(PATRONYMIC_STEMS);
  return {
    last: female ? feminine(surname) : surname,
    first: random.pick(female ? FEMALE_NAMES : MALE_NAMES),
    middle: random.chance(0.97) ? `${stem}${female ? 'на' : 'ич'}` : null,
  };
}

const SHOPPING_CENTRES = ['Радуга', 'Европа', 'Северный', 'Нева', 'Жемчужина', 'Балтика', 'Июнь', 'Охта', 'Заневский', 'Континент', 'Лето'];
const CINEMAS = ['Заря', 'Прибой', 'Слава', 'Родина', 'Нева', 'Аврора', 'Ленинград'];
const FACTORIES = ['Электросила', 'Светлана', 'Красный треугольник', 'Большевик', 'Арсенал', 'Звезда', 'Ленполиграфмаш'];

/** A place a stop can be named after: 'Поликлиника № 56', 'ТЦ «Радуга»', 'Рынок'. */
export function landmark(random: Random): string {
  switch (random.int(0, 13)) {
    case 0:
      return `Поликлиника № ${random.int(1, 120)}`;
    case 1:
      return `Школа № ${random.int(1, 650)}`;
    case 2:
      return `Больница № ${random.int(1, 40)}`;
    case 3:
      return `ТЦ «${random.pick(SHOPPING_CENTRES)}»`;
    case 4:
      return `Кинотеатр «${random.pick(CINEMAS)}»`;
    case 5:
      return `Завод «${random.pick(FACTORIES)}»`;
    case 6:
      return random.pick(['Рынок', 'Универсам', 'Дом быта', 'Почтамт', 'Сбербанк']);
    case 7:
      return random.pick(['Парк', 'Сквер', 'Сад', 'Пруд']);
    case 8:
      return random.pick(['Стадион', 'Бассейн', 'Ледовый дворец', 'Спорткомплекс']);
    case 9:
      return random.pick(['Дом культуры', 'Библиотека', 'Дворец творчества юных', 'Музей']);
    case 10:
      return `Колледж № ${random.int(1, 30)}`;
    case 11:
      return random.pick(['Детская поликлиника', 'Женская консультация', 'Травмпункт', 'Аптека']);
    case 12:
      return random.pick(['Автостанция', 'Железнодорожная платформа', 'Автовокзал', 'Трамвайное кольцо']);
    default:
      return random.pick(['Администрация района', 'МФЦ', 'ЖЭС', 'Пожарная часть', 'Отделение полиции']);
  }
}

/** 'Улица Есенина' as written at the start of a stop name: 'Ул. Есенина', 'Пр. Энгельса'. */
export function shortStreet(street: string): string {
  return street
    .replace(/^Улица /, 'Ул. ')
    .replace(/^Проспект /, 'Пр. ')
    .replace(/^Набережная /, 'Наб. ')
    .replace(/^Шоссе /, 'Ш. ')
    .replace(/^Бульвар /, 'Бул. ');
}

/** Letters that read the same in Latin and Cyrillic: the only ones on Russian number plates. */
const PLATE_LETTERS = 'АВЕКМНОРСТУХ';
const PLATE_REGIONS = ['78', '98', '178', '198'];

/** A Russian number plate like 'В123АС178'. */
export function plateNumber(random: Random): string {
  const letter = () => PLATE_LETTERS[random.int(0, PLATE_LETTERS.length - 1)];
  return `${letter()}${String(random.int(1, 999)).padStart(3, '0')}${letter()}${letter()}${random.pick(PLATE_REGIONS)}`;
}

const VIN_CHARS = '0123456789ABCDEFGHJKLMNPRSTUVWXYZ';

/** A 17-character vehicle identification number after the maker's world code ('XTY' for LiAZ). */
export function vin(random: Random, maker: string): string {
  let rest = '';
  while (rest.length < 17 - maker.length) rest += VIN_CHARS[random.int(0, VIN_CHARS.length - 1)];
  return maker + rest;
}

/** '+7 (812) 555-12-34'. */
export function phone(random: Random): string {
  const two = () => String(random.int(0, 99)).padStart(2, '0');
  return `+7 (812) ${random.int(200, 799)}-${two()}-${two()}`;
}
