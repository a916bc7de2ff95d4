/** Code lists of the interface spec, verbatim. */

/** Allowed country codes (addresses and `provider.preferences.countryCodes`). */
export const COUNTRY_CODES =
  'AF AL DZ AS AD AO AI AQ AG AR AM AW AU AT AZ BS BH BD BB BY BE BZ BJ BM BT BO BA BW BR IO BN BG BF BI CV KH CM CA KY CF TD CL CN CX CC CO KM CG CD CK CR HR CU CY CZ DK DJ DM DO EC EG SV GQ ER EE SZ ET FJ FI FR GF PF GA GM GE DE GH GI GR GL GD GP GU GT GN GW GY HT HN HK HU IS IN ID IR IQ IE IL IT JM JP JO KZ KE KI KP KR KW KG LA LV LB LS LR LY LI LT LU MO MG MW MY MV ML MT MH MQ MR MU YT MX FM MD MC MN ME MS MA MZ MM NA NR NP NL NC NZ NI NE NG NU NF MK MP NO OM PK PW PS PA PG PY PE PH PN PL PT PR QA RE RO RU RW BL SH KN LC MF PM VC WS SM ST SA SN RS SC SL SG SX SK SI SB SO ZA SS ES LK SD SR SE CH SY TW TJ TZ TH TL TG TK TO TT TN TR TM TV UG UA AE GB US UY UZ VU VE VN VG VI WF EH YE ZM ZW'.split(
    ' ',
  );

/** Allowed currency codes (ISO 4217, as listed by the spec). */
export const CURRENCY_CODES =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XDR XOF XPD XPF XPT XSU XTS XUA XXX YER ZAR ZMW ZWG'.split(
    ' ',
  );

/** ISO 20022 charge bearer codes accepted in `paymentScheme.preferences.feePaidBy` (decisions §2). */
export const FEE_PAID_BY = ['DEBT', 'CRED', 'SHAR', 'SLEV'] as const;

/** Languages the payer's pages are written in; `Accept-Language` picks among these. */
export const SUPPORTED_LOCALES = ['en', 'de', 'fr', 'es', 'lt'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** Payment schemes of the API (`paymentScheme.name`). */
export type PaymentSchemeName = 'SEPA' | 'DOMESTIC';
/** How a payer authorises at a bank: on the bank's pages, on ours (credentials and codes), or in the bank's app. */
export type ScaApproach = 'REDIRECT' | 'EMBEDDED' | 'DECOUPLED';
/** Where a client, a payment and a bank live: sandbox banks or real ones. */
export type Environment = 'sandbox' | 'production';
